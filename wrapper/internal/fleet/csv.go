package fleet

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"strings"
)

// header is a CSV export's first row.
type header struct {
	names []string
	split *splitter
}

// parseHeader reads the first record as a header: at least two fields,
// split at the delimiter it uses most (Jamf exports comma- or
// tab-separated, some locales use semicolons).
func parseHeader(first record) (header, bool) {
	if first.over {
		return header{}, false
	}
	split := newSplitter(delimiter(first.rec))
	names, ok := split.split(first.rec)
	if !ok || len(names) < 2 {
		return header{}, false
	}
	names = append([]string(nil), names...)
	names[0] = strings.TrimPrefix(names[0], "\ufeff")
	return header{names, split}, true
}

func delimiter(line []byte) rune {
	best, comma := 0, ','
	for _, d := range []rune{',', '\t', ';'} {
		if n := bytes.Count(line, []byte(string(d))); n > best {
			best, comma = n, d
		}
	}
	return comma
}

// exitColumns are the headers of exit or error code columns this package
// knows: Intune's device install-status export names its columns
// ErrorCode and HexErrorCode; the others are what admins call their own.
var exitColumns = []string{"ErrorCode", "HexErrorCode", "Exit code", "Return code"}

// find returns the 1-based column named want (any case, spaces and
// underscores ignored), or with want empty the first known exit-code
// column and its name as this package spells it.
func (h header) find(want string) (int, string) {
	if want != "" {
		return h.index(want), ""
	}
	for _, known := range exitColumns {
		if i := h.index(known); i > 0 {
			return i, known
		}
	}
	return 0, ""
}

// knownName is the name this package knows for a column, or empty: a
// header is input, so only names from exitColumns are ever shown.
func (h header) knownName(col int) string {
	for _, known := range exitColumns {
		if h.index(known) == col {
			return known
		}
	}
	return ""
}

// known is the first of names that is a column of h, as this package
// spells it; empty when none is.
func (h header) known(names []string) string {
	for _, n := range names {
		if h.index(n) > 0 {
			return n
		}
	}
	return ""
}

func (h header) index(want string) int {
	if want == "" {
		return 0
	}
	for i, n := range h.names {
		if normalName(n) == normalName(want) {
			return i + 1
		}
	}
	return 0
}

func normalName(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.NewReplacer(" ", "", "_", "").Replace(s)
}

// resultColumn is the column that holds result lines in most sample
// rows, 0 when none does.
func resultColumn(sample []record, split *splitter) int {
	hits := map[int]int{}
	best := 0
	for _, rec := range sample {
		if rec.over {
			continue
		}
		fields, ok := split.split(rec.rec)
		if !ok {
			continue
		}
		for i, f := range fields {
			if _, r := resultIn([]byte(f)); r != readNone {
				hits[i+1]++
				if hits[i+1] > hits[best] || hits[i+1] == hits[best] && i+1 < best {
					best = i + 1
				}
			}
		}
	}
	return best
}

// splitter splits one record at a time into fields, forgiving stray
// quotes. One csv.Reader serves every record of an input: it is fed each
// record alone, so the bounds of records hold for it too.
type splitter struct {
	src *bytes.Reader
	cr  *csv.Reader
}

func newSplitter(comma rune) *splitter {
	s := &splitter{src: bytes.NewReader(nil)}
	s.cr = csv.NewReader(s.src)
	s.cr.Comma = comma
	s.cr.LazyQuotes = true
	s.cr.FieldsPerRecord = -1
	s.cr.ReuseRecord = true
	return s
}

// split returns the fields of rec, valid until the next call. A record
// that holds more than one CSV record (quotes this reader and
// encoding/csv count differently) is refused.
func (s *splitter) split(rec []byte) ([]string, bool) {
	s.src.Reset(rec)
	fields, err := s.cr.Read()
	if err != nil {
		return nil, false
	}
	if _, err := s.cr.Read(); !errors.Is(err, io.EOF) {
		return nil, false
	}
	return fields, true
}
