package xar

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"hash"
	"io"
	"strconv"
	"strings"
)

// Reader reads a xar archive from random-access storage.
type Reader struct {
	r        io.ReaderAt
	size     int64
	heap     int64 // file offset of the heap
	members  []*entry
	byName   map[string]*entry
	Created  string
	tocBytes int64
	digest   []byte
	sigs     []Signature
}

type entry struct {
	Header
	data *tocData
}

type tocFile struct {
	ID    string    `xml:"id,attr"`
	Names []string  `xml:"name"`
	Type  string    `xml:"type"`
	Mode  string    `xml:"mode"`
	UID   string    `xml:"uid"`
	GID   string    `xml:"gid"`
	User  string    `xml:"user"`
	Group string    `xml:"group"`
	Data  *tocData  `xml:"data"`
	Files []tocFile `xml:"file"`
}

type tocData struct {
	Offset   int64 `xml:"offset"`
	Length   int64 `xml:"length"`
	Size     int64 `xml:"size"`
	Encoding struct {
		Style string `xml:"style,attr"`
	} `xml:"encoding"`
	Archived  checksum `xml:"archived-checksum"`
	Extracted checksum `xml:"extracted-checksum"`
}

type checksum struct {
	Style string `xml:"style,attr"`
	Value string `xml:",chardata"`
}

type tocDoc struct {
	TOC struct {
		Created  string `xml:"creation-time"`
		Checksum struct {
			Style  string `xml:"style,attr"`
			Offset int64  `xml:"offset"`
			Size   int64  `xml:"size"`
		} `xml:"checksum"`
		Signatures  []tocSignature `xml:"signature"`
		XSignatures []tocSignature `xml:"x-signature"`
		Files       []tocFile      `xml:"file"`
	} `xml:"toc"`
}

// NewReader checks the header, inflates the TOC and verifies its digest
// before trusting any offset in it.
func NewReader(r io.ReaderAt, size int64) (*Reader, error) {
	hdr := make([]byte, headerSize)
	if _, err := r.ReadAt(hdr, 0); err != nil {
		return nil, fmt.Errorf("%w: short header", ErrFormat)
	}
	if binary.BigEndian.Uint32(hdr) != magic {
		return nil, fmt.Errorf("%w: not a xar archive", ErrFormat)
	}
	hsize := int64(binary.BigEndian.Uint16(hdr[4:]))
	zlen, xlen := binary.BigEndian.Uint64(hdr[8:]), binary.BigEndian.Uint64(hdr[16:])
	algo := binary.BigEndian.Uint32(hdr[24:])
	if hsize < headerSize || xlen > MaxTOCSize || zlen > uint64(size) || hsize+int64(zlen) > size {
		return nil, fmt.Errorf("%w: TOC lengths out of range", ErrFormat)
	}
	ztoc := make([]byte, zlen)
	if _, err := r.ReadAt(ztoc, hsize); err != nil {
		return nil, fmt.Errorf("%w: short TOC", ErrFormat)
	}
	xmlBytes, err := inflate(ztoc, int64(xlen))
	if err != nil {
		return nil, err
	}
	var doc tocDoc
	if err := xml.Unmarshal(xmlBytes, &doc); err != nil {
		return nil, fmt.Errorf("%w: TOC XML: %v", ErrFormat, err)
	}
	x := &Reader{r: r, size: size, heap: hsize + int64(zlen), byName: map[string]*entry{}, Created: doc.TOC.Created, tocBytes: int64(zlen)}
	if err := x.checkDigest(ztoc, algo, doc); err != nil {
		return nil, err
	}
	if err := x.collectSignatures(doc); err != nil {
		return nil, err
	}
	if err := x.collect(doc.TOC.Files, "", 0); err != nil {
		return nil, err
	}
	return x, nil
}

func inflate(z []byte, want int64) ([]byte, error) {
	zr, err := zlib.NewReader(bytes.NewReader(z))
	if err != nil {
		return nil, fmt.Errorf("%w: TOC is not zlib", ErrFormat)
	}
	out, err := io.ReadAll(io.LimitReader(zr, want+1))
	if err != nil || int64(len(out)) != want {
		return nil, fmt.Errorf("%w: TOC size differs from the header", ErrFormat)
	}
	return out, nil
}

func (x *Reader) checkDigest(ztoc []byte, algo uint32, doc tocDoc) error {
	cs := doc.TOC.Checksum
	if algo != cksumSHA1 || cs.Style != "sha1" || cs.Size != digestSize || cs.Offset < 0 {
		return fmt.Errorf("%w: only SHA-1 TOC digests are supported", ErrFormat)
	}
	stored := make([]byte, digestSize)
	if x.heap+cs.Offset+digestSize > x.size {
		return fmt.Errorf("%w: TOC digest outside the file", ErrFormat)
	}
	if _, err := x.r.ReadAt(stored, x.heap+cs.Offset); err != nil {
		return fmt.Errorf("%w: TOC digest unreadable", ErrFormat)
	}
	sum := sha1.Sum(ztoc)
	if !bytes.Equal(sum[:], stored) {
		return fmt.Errorf("%w: TOC digest", ErrChecksum)
	}
	x.digest = stored
	return nil
}

func (x *Reader) collect(files []tocFile, dir string, depth int) error {
	if depth > 64 {
		return fmt.Errorf("%w: TOC nested too deep", ErrFormat)
	}
	for _, f := range files {
		if len(f.Names) == 0 {
			return fmt.Errorf("%w: member %s has no name", ErrFormat, f.ID)
		}
		name := f.Names[len(f.Names)-1] // Apple sometimes repeats <name>
		if name == "" || strings.Contains(name, "/") || name == "." || name == ".." {
			return fmt.Errorf("%w: bad member name %q", ErrFormat, name)
		}
		path := dir + name
		if _, dup := x.byName[path]; dup {
			return fmt.Errorf("%w: %q listed twice", ErrFormat, path)
		}
		e := &entry{Header: Header{Name: path, Type: f.Type, User: f.User, Group: f.Group}, data: f.Data}
		e.Mode, _ = strconv.ParseInt(f.Mode, 8, 64)
		e.UID, _ = strconv.Atoi(f.UID)
		e.GID, _ = strconv.Atoi(f.GID)
		if f.Data != nil {
			e.Size, e.Encoding = f.Data.Size, f.Data.Encoding.Style
		}
		x.members = append(x.members, e)
		x.byName[path] = e
		if err := x.collect(f.Files, path+"/", depth+1); err != nil {
			return err
		}
	}
	return nil
}

func (x *Reader) checkBounds(path string, d *tocData) error {
	end := x.heap + d.Offset + d.Length
	if d.Offset < 0 || d.Length < 0 || d.Size < 0 || end < x.heap || end > x.size {
		return fmt.Errorf("%w: %q data outside the file", ErrFormat, path)
	}
	return nil
}

// Members lists every member, parents before children.
func (x *Reader) Members() []Header {
	out := make([]Header, len(x.members))
	for i, e := range x.members {
		out[i] = e.Header
	}
	return out
}

// Open returns a member's decoded bytes as a stream. Both checksums are
// verified as it is read: the final Read reports ErrChecksum on mismatch.
func (x *Reader) Open(name string) (io.Reader, error) {
	e, ok := x.byName[name]
	if !ok || e.data == nil {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, name)
	}
	d := e.data
	if err := x.checkBounds(name, d); err != nil {
		return nil, err
	}
	archived, err := hasher(d.Archived)
	if err != nil {
		return nil, err
	}
	extracted, err := hasher(d.Extracted)
	if err != nil {
		return nil, err
	}
	stored := io.TeeReader(io.NewSectionReader(x.r, x.heap+d.Offset, d.Length), archived)
	var plain io.Reader = stored
	switch d.Encoding.Style {
	case EncodingZlib:
		zr, err := zlib.NewReader(stored)
		if err != nil {
			return nil, fmt.Errorf("%w: %s is not zlib", ErrFormat, name)
		}
		plain = zr
	case EncodingNone, "":
	default:
		return nil, fmt.Errorf("%w: %s: encoding %q", ErrFormat, name, d.Encoding.Style)
	}
	return &verifying{
		r: io.TeeReader(io.LimitReader(plain, d.Size+1), extracted), stored: stored,
		size: d.Size, archived: archived, extracted: extracted,
		wantArchived:  strings.ToLower(strings.TrimSpace(d.Archived.Value)),
		wantExtracted: strings.ToLower(strings.TrimSpace(d.Extracted.Value)),
	}, nil
}

// ReadFile returns a whole member; for small members (PackageInfo, Bom).
func (x *Reader) ReadFile(name string) ([]byte, error) {
	r, err := x.Open(name)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

func hasher(c checksum) (hash.Hash, error) {
	if c.Style != "sha1" {
		return nil, fmt.Errorf("%w: checksum style %q", ErrFormat, c.Style)
	}
	return sha1.New(), nil
}

type verifying struct {
	r, stored                   io.Reader
	n, size                     int64
	archived, extracted         hash.Hash
	wantArchived, wantExtracted string
}

func (v *verifying) Read(p []byte) (int, error) {
	n, err := v.r.Read(p)
	v.n += int64(n)
	if v.n > v.size {
		return n, fmt.Errorf("%w: member longer than its size", ErrChecksum)
	}
	if err != io.EOF {
		return n, err
	}
	io.Copy(io.Discard, v.stored) // hash any stored bytes the decoder left
	switch {
	case v.n != v.size:
		return n, fmt.Errorf("%w: member shorter than its size", ErrChecksum)
	case hex.EncodeToString(v.archived.Sum(nil)) != v.wantArchived:
		return n, fmt.Errorf("%w: archived checksum", ErrChecksum)
	case hex.EncodeToString(v.extracted.Sum(nil)) != v.wantExtracted:
		return n, fmt.Errorf("%w: extracted checksum", ErrChecksum)
	}
	return n, io.EOF
}
