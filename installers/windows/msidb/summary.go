package msidb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"time"
)

// SummaryStream is the stored name of the summary information stream
// (not packed).
const SummaryStream = "\x05SummaryInformation"

// Summary is the summary information property set of an installation
// package. Empty strings and zero times are left out of the stream.
type Summary struct {
	Codepage       int    // code page of these strings (PID 1)
	Title          string // PID 2
	Subject        string // PID 3
	Author         string // PID 4
	Keywords       string // PID 5
	Comments       string // PID 6
	Template       string // platform;languages, e.g. "x64;1033" (PID 7)
	RevisionNumber string // the package code, an upper-case GUID (PID 9)
	Created        time.Time
	LastSaved      time.Time
	PageCount      int // minimum installer version × 100 (PID 14)
	WordCount      int // source image flags (PID 15)
	Application    string
	Security       int // PID 19
}

// Property ids and value types of [MS-OLEPS].
const (
	pidCodepage    = 1
	pidTitle       = 2
	pidSubject     = 3
	pidAuthor      = 4
	pidKeywords    = 5
	pidComments    = 6
	pidTemplate    = 7
	pidRevision    = 9
	pidCreated     = 12
	pidLastSaved   = 13
	pidPageCount   = 14
	pidWordCount   = 15
	pidApplication = 18
	pidSecurity    = 19

	vtI2       = 0x0002
	vtI4       = 0x0003
	vtLPSTR    = 0x001e
	vtFILETIME = 0x0040
)

// fmtidSummary is FMTID_SummaryInformation {F29F85E0-4FF9-1068-AB91-08002B27B3D9}.
var fmtidSummary = [16]byte{0xe0, 0x85, 0x9f, 0xf2, 0xf9, 0x4f, 0x68, 0x10, 0xab, 0x91, 0x08, 0x00, 0x2b, 0x27, 0xb3, 0xd9}

const (
	setStreamHeader = 0x30       // byte order … FMTID, offset
	systemID        = 0x00020005 // what msitools writes; readers ignore it
	// filetimeEpoch is 1601-01-01 in Unix seconds, negated.
	filetimeEpoch = 11644473600
	maxSummary    = 1 << 20
)

type property struct {
	id    uint32
	value any // int16, int32, string, time.Time
}

func (s Summary) properties() []property {
	props := []property{{pidCodepage, int16(s.Codepage)}}
	for _, p := range []struct {
		id uint32
		v  string
	}{{pidTitle, s.Title}, {pidSubject, s.Subject}, {pidAuthor, s.Author}, {pidKeywords, s.Keywords},
		{pidComments, s.Comments}, {pidTemplate, s.Template}, {pidRevision, s.RevisionNumber}, {pidApplication, s.Application}} {
		if p.v != "" {
			props = append(props, property{p.id, p.v})
		}
	}
	for _, p := range []struct {
		id uint32
		t  time.Time
	}{{pidCreated, s.Created}, {pidLastSaved, s.LastSaved}} {
		if !p.t.IsZero() {
			props = append(props, property{p.id, p.t})
		}
	}
	props = append(props, property{pidPageCount, int32(s.PageCount)}, property{pidWordCount, int32(s.WordCount)}, property{pidSecurity, int32(s.Security)})
	sort.Slice(props, func(i, j int) bool { return props[i].id < props[j].id })
	return props
}

// MarshalBinary encodes the property set stream.
func (s Summary) MarshalBinary() ([]byte, error) {
	if s.Codepage < 0 || s.Codepage > 0xffff {
		return nil, fmt.Errorf("msidb: summary code page %d", s.Codepage)
	}
	props := s.properties()
	var values bytes.Buffer
	offsets := make([]uint32, len(props))
	base := uint32(8 + 8*len(props))
	for i, p := range props {
		offsets[i] = base + uint32(values.Len())
		if err := appendValue(&values, p.value); err != nil {
			return nil, fmt.Errorf("msidb: summary property %d: %w", p.id, err)
		}
	}
	le := binary.LittleEndian
	out := le.AppendUint16(nil, 0xfffe)
	out = le.AppendUint16(out, 0)
	out = le.AppendUint32(out, systemID)
	out = append(out, make([]byte, 16)...)
	out = le.AppendUint32(out, 1)
	out = append(out, fmtidSummary[:]...)
	out = le.AppendUint32(out, setStreamHeader)
	out = le.AppendUint32(out, base+uint32(values.Len()))
	out = le.AppendUint32(out, uint32(len(props)))
	for i, p := range props {
		out = le.AppendUint32(out, p.id)
		out = le.AppendUint32(out, offsets[i])
	}
	return append(out, values.Bytes()...), nil
}

func appendValue(b *bytes.Buffer, v any) error {
	le := binary.LittleEndian
	var out []byte
	switch v := v.(type) {
	case int16:
		out = le.AppendUint32(le.AppendUint32(nil, vtI2), uint32(uint16(v)))
	case int32:
		out = le.AppendUint32(le.AppendUint32(nil, vtI4), uint32(v))
	case time.Time:
		out = le.AppendUint64(le.AppendUint32(nil, vtFILETIME), filetime(v))
	case string:
		if bytes.IndexByte([]byte(v), 0) >= 0 {
			return errors.New("string holds a NUL")
		}
		out = le.AppendUint32(le.AppendUint32(nil, vtLPSTR), uint32(len(v)+1))
		out = append(append(out, v...), 0)
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
	}
	b.Write(out)
	return nil
}

// filetime is t in 100 ns units since 1601-01-01 UTC.
func filetime(t time.Time) uint64 {
	return uint64(t.Unix()+filetimeEpoch)*10_000_000 + uint64(t.Nanosecond()/100)
}

func fromFiletime(ft uint64) time.Time {
	if ft == 0 {
		return time.Time{}
	}
	return time.Unix(int64(ft/10_000_000)-filetimeEpoch, int64(ft%10_000_000)*100).UTC()
}

var errSummary = errors.New("msidb: corrupt summary information")

// UnmarshalBinary decodes a property set stream; properties other than
// those of Summary are skipped.
func (s *Summary) UnmarshalBinary(data []byte) error {
	*s = Summary{}
	le := binary.LittleEndian
	if len(data) < setStreamHeader || len(data) > maxSummary || le.Uint16(data) != 0xfffe {
		return fmt.Errorf("%w: bad header", errSummary)
	}
	if le.Uint32(data[0x18:]) < 1 || !bytes.Equal(data[0x1c:0x2c], fmtidSummary[:]) {
		return fmt.Errorf("%w: not FMTID_SummaryInformation", errSummary)
	}
	start := int64(le.Uint32(data[0x2c:]))
	if start < setStreamHeader || start+8 > int64(len(data)) {
		return fmt.Errorf("%w: property set offset %d", errSummary, start)
	}
	set := data[start:]
	size, count := int64(le.Uint32(set)), int64(le.Uint32(set[4:]))
	if size < 8 || size > int64(len(set)) || count > (size-8)/8 {
		return fmt.Errorf("%w: property set of %d bytes with %d properties", errSummary, size, count)
	}
	set = set[:size]
	for i := int64(0); i < count; i++ {
		id, off := le.Uint32(set[8+8*i:]), int64(le.Uint32(set[12+8*i:]))
		if off < 8 || off+8 > size {
			return fmt.Errorf("%w: property %d at offset %d", errSummary, id, off)
		}
		if err := s.set(id, set[off:]); err != nil {
			return fmt.Errorf("%w: property %d: %v", errSummary, id, err)
		}
	}
	return nil
}

func (s *Summary) set(id uint32, v []byte) error {
	le := binary.LittleEndian
	vt := le.Uint16(v)
	want := map[uint32]uint16{pidCodepage: vtI2, pidCreated: vtFILETIME, pidLastSaved: vtFILETIME,
		pidPageCount: vtI4, pidWordCount: vtI4, pidSecurity: vtI4}[id]
	if want == 0 {
		want = vtLPSTR
	}
	strs := map[uint32]*string{pidTitle: &s.Title, pidSubject: &s.Subject, pidAuthor: &s.Author, pidKeywords: &s.Keywords,
		pidComments: &s.Comments, pidTemplate: &s.Template, pidRevision: &s.RevisionNumber, pidApplication: &s.Application}
	ints := map[uint32]*int{pidCodepage: &s.Codepage, pidPageCount: &s.PageCount, pidWordCount: &s.WordCount, pidSecurity: &s.Security}
	if strs[id] == nil && ints[id] == nil && id != pidCreated && id != pidLastSaved {
		return nil
	}
	// Some writers store the integers as VT_I2 or VT_I4 interchangeably.
	if vt != want && !(ints[id] != nil && (vt == vtI2 || vt == vtI4)) {
		return fmt.Errorf("type %#x, want %#x", vt, want)
	}
	switch vt {
	case vtI2:
		*ints[id] = int(int16(le.Uint16(v[4:])))
		if id == pidCodepage {
			*ints[id] = int(le.Uint16(v[4:]))
		}
	case vtI4:
		*ints[id] = int(int32(le.Uint32(v[4:])))
		if id == pidCodepage && (*ints[id] < 0 || *ints[id] > 0xffff) {
			return fmt.Errorf("code page %d", *ints[id])
		}
	case vtFILETIME:
		if len(v) < 12 {
			return errors.New("cut short")
		}
		t := fromFiletime(le.Uint64(v[4:]))
		if id == pidCreated {
			s.Created = t
		} else {
			s.LastSaved = t
		}
	case vtLPSTR:
		n := int64(le.Uint32(v[4:]))
		if n > int64(len(v))-8 {
			return fmt.Errorf("string of %d bytes runs past the set", n)
		}
		str := v[8 : 8+n]
		if i := bytes.IndexByte(str, 0); i >= 0 {
			str = str[:i]
		}
		*strs[id] = string(str)
	}
	return nil
}
