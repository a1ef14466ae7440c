package managed

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strconv"

	"github.com/ctrld-install/ctrld-install/internal/settings"
)

// An XML plist is read as a stream of raw tokens: only the entries of the
// top dictionary are looked at, everything else is skipped as it passes,
// and the walk is bounded in tokens. The reader matches end tags itself
// with a stack of names packed in one byte slice (encoding/xml's own stack
// costs tens of bytes per level), so nesting costs a few bytes a level
// whatever its depth. encoding/xml holds all of one start tag's
// attributes at once, some 50 bytes of memory for each 5 bytes of input,
// so a file with more attributes in one tag than a plist ever has is
// refused before it is decoded.

var errBadXMLPlist = errors.New("XML plist is not a dictionary of settings")

const (
	// maxXMLTokens bounds the walk's time whatever the file holds; a
	// MaxFileSize file of the smallest tokens stays below it.
	maxXMLTokens = settings.MaxFileSize
	// maxKeyLen is longer than any key name.
	maxKeyLen = 32
	// maxIntegerText is longer than any 64-bit integer in decimal or hex.
	maxIntegerText = 32
	// maxEqualsPerTag is far more attributes than a plist element has
	// (one, on <plist>), and few enough to cost nothing held at once.
	maxEqualsPerTag = 1024
)

type xmlWalker struct {
	d      *xml.Decoder
	open   nameStack // elements started and not yet ended
	tokens int
}

// nameStack holds element names end to end in one slice.
type nameStack struct {
	names []byte
	ends  []int32
}

func (s *nameStack) depth() int { return len(s.ends) }

func (s *nameStack) push(n xml.Name) {
	s.names = append(s.names, n.Space...)
	s.names = append(s.names, ':')
	s.names = append(s.names, n.Local...)
	s.ends = append(s.ends, int32(len(s.names)))
}

// pop removes the innermost name, reporting whether it was n.
func (s *nameStack) pop(n xml.Name) bool {
	if len(s.ends) == 0 {
		return false
	}
	start := 0
	if len(s.ends) > 1 {
		start = int(s.ends[len(s.ends)-2])
	}
	top := s.names[start:s.ends[len(s.ends)-1]]
	s.names, s.ends = s.names[:start], s.ends[:len(s.ends)-1]
	return len(top) == len(n.Space)+1+len(n.Local) && string(top[:len(n.Space)]) == n.Space &&
		top[len(n.Space)] == ':' && string(top[len(n.Space)+1:]) == n.Local
}

func parseXMLPlist(data []byte) (*rawValues, error) {
	if !attributesBounded(data) {
		return nil, errBadXMLPlist
	}
	w := &xmlWalker{d: xml.NewDecoder(bytes.NewReader(data))}
	root, err := w.child()
	if err != nil || root.Name.Local != "plist" {
		return nil, errBadXMLPlist
	}
	top, err := w.child()
	if err != nil || top.Name.Local != "dict" {
		return nil, errBadXMLPlist
	}
	found, err := w.dict()
	if err != nil {
		return nil, err
	}
	return found, w.rest()
}

// attributesBounded reports whether no start tag can hold more than
// maxEqualsPerTag attributes. Each attribute needs an '=' and none may
// hold a '<', so the '=' signs from one '<' to the next bound the
// attributes of the tag the first one opens.
func attributesBounded(data []byte) bool {
	equals := 0
	for _, c := range data {
		switch c {
		case '<':
			equals = 0
		case '=':
			equals++
			if equals > maxEqualsPerTag {
				return false
			}
		}
	}
	return true
}

// next returns the next token, counting tokens and matching end tags. At
// the end of the input every element must have ended.
func (w *xmlWalker) next() (xml.Token, error) {
	w.tokens++
	if w.tokens > maxXMLTokens {
		return nil, errBadXMLPlist
	}
	tok, err := w.d.RawToken()
	if err == io.EOF && w.open.depth() > 0 {
		return nil, errBadXMLPlist
	}
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case xml.StartElement:
		w.open.push(t.Name)
	case xml.EndElement:
		if !w.open.pop(t.Name) {
			return nil, errBadXMLPlist
		}
	}
	return tok, nil
}

// child returns the next element that starts at this level, passing over
// text, comments and processing instructions. It fails at the end of the
// enclosing element.
func (w *xmlWalker) child() (xml.StartElement, error) {
	for {
		tok, err := w.next()
		if err != nil {
			return xml.StartElement{}, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return t, nil
		case xml.EndElement:
			return xml.StartElement{}, io.EOF
		}
	}
}

// dict reads the top dictionary's entries: a <key>, then its value.
func (w *xmlWalker) dict() (*rawValues, error) {
	found := newRawValues()
	for {
		el, err := w.child()
		if err == io.EOF {
			return found, nil
		}
		if err != nil {
			return nil, err
		}
		if el.Name.Local != "key" {
			return nil, errBadXMLPlist
		}
		name, err := w.text(maxKeyLen)
		if err != nil {
			return nil, err
		}
		valueEl, err := w.child()
		if err != nil {
			return nil, errBadXMLPlist
		}
		k, known := settings.IsKeyBytes(name)
		if !known {
			if err := w.skip(); err != nil {
				return nil, err
			}
			continue
		}
		v, err := w.value(valueEl)
		if err != nil {
			return nil, err
		}
		found.set(k, v)
	}
}

// value reads the element just started as a setting's value.
func (w *xmlWalker) value(el xml.StartElement) (value, error) {
	switch el.Name.Local {
	case "string":
		s, err := w.text(settings.MaxValueLen)
		if err != nil {
			return value{}, err
		}
		if len(s) > settings.MaxValueLen {
			return value{kind: valueTooLong}, nil
		}
		return value{kind: valueString, s: string(s)}, nil
	case "true", "false":
		if _, err := w.text(0); err != nil {
			return value{}, err
		}
		return value{kind: valueBool, b: el.Name.Local == "true"}, nil
	case "integer":
		s, err := w.text(maxIntegerText)
		if err != nil {
			return value{}, err
		}
		n, err := strconv.ParseInt(string(bytes.TrimSpace(s)), 0, 64)
		if err != nil {
			return value{kind: valueOther}, nil
		}
		return value{kind: valueInt, nonZero: n != 0}, nil
	}
	return value{kind: valueOther}, w.skip()
}

// text reads the text of the element just started, up to its end, keeping
// at most limit+1 bytes (so a caller can tell it was longer). A child
// element is not text: the file is refused.
func (w *xmlWalker) text(limit int) ([]byte, error) {
	var out []byte
	for {
		tok, err := w.next()
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.CharData:
			room := limit + 1 - len(out)
			out = append(out, t[:min(len(t), max(room, 0))]...)
		case xml.EndElement:
			return out, nil
		case xml.StartElement:
			return nil, errBadXMLPlist
		}
	}
}

// skip passes over the rest of the element just started.
func (w *xmlWalker) skip() error {
	level := w.open.depth()
	for w.open.depth() >= level {
		if _, err := w.next(); err != nil {
			return err
		}
	}
	return nil
}

// rest reads to the end of the document, so a file that is not well
// formed gives no settings, as it would give none to macOS.
func (w *xmlWalker) rest() error {
	for {
		_, err := w.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
