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
	"os"
	"strings"
	"time"
)

// Writer writes a xar archive. Member bytes are spooled to a temporary file
// as they arrive, so memory stays flat whatever their size; the archive is
// written on Close, when the TOC is known.
type Writer struct {
	// Signer, when set before Close, signs the archive.
	Signer *Signer

	w       io.Writer
	created time.Time
	spool   *os.File
	heapLen int64 // bytes in the spool: the member data after the digest and signatures
	root    []*member
	byPath  map[string]*member
	nextID  int
	cur     *member
	zw      *zlib.Writer
}

type member struct {
	id       int
	h        Header
	children []*member
	data     *dataInfo
}

type dataInfo struct {
	// start is the offset in the member data; the heap offset adds the
	// digest and signature slots before it.
	start, length, size int64
	archived, extracted hash.Hash
	encoding            string
}

// NewWriter writes to w; created is the TOC's creation time (pin it for
// reproducible output).
func NewWriter(w io.Writer, created time.Time) *Writer {
	return &Writer{w: w, created: created, byPath: map[string]*member{}, nextID: 1}
}

// WriteHeader starts a member. Parent directories that were not written
// are added as root:wheel 0755 directories.
func (w *Writer) WriteHeader(h *Header) error {
	if err := w.endMember(); err != nil {
		return err
	}
	if h.Name == "" || strings.HasPrefix(h.Name, "/") || strings.Contains(h.Name, "//") {
		return fmt.Errorf("xar: bad member name %q", h.Name)
	}
	if _, dup := w.byPath[h.Name]; dup {
		return fmt.Errorf("xar: %q written twice", h.Name)
	}
	parent, err := w.parent(h.Name)
	if err != nil {
		return err
	}
	m := &member{id: w.nextID, h: *h}
	w.nextID++
	w.byPath[h.Name] = m
	if parent == nil {
		w.root = append(w.root, m)
	} else {
		parent.children = append(parent.children, m)
	}
	if h.Type == TypeFile {
		return w.startData(m)
	}
	if h.Type != TypeDirectory {
		return fmt.Errorf("xar: unsupported member type %q", h.Type)
	}
	return nil
}

func (w *Writer) parent(name string) (*member, error) {
	i := strings.LastIndex(name, "/")
	if i < 0 {
		return nil, nil
	}
	dir := name[:i]
	if p, ok := w.byPath[dir]; ok {
		if p.h.Type != TypeDirectory {
			return nil, fmt.Errorf("xar: %q is not a directory", dir)
		}
		return p, nil
	}
	if err := w.WriteHeader(&Header{Name: dir, Type: TypeDirectory, Mode: 0o755, User: "root", Group: "wheel"}); err != nil {
		return nil, err
	}
	return w.byPath[dir], nil
}

func (w *Writer) startData(m *member) error {
	if w.spool == nil {
		f, err := os.CreateTemp("", "xar-heap-*")
		if err != nil {
			return err
		}
		w.spool = f
	}
	enc := m.h.Encoding
	if enc == "" {
		enc = EncodingNone
	}
	m.data = &dataInfo{start: w.heapLen, archived: sha1.New(), extracted: sha1.New(), encoding: enc}
	w.cur = m
	if enc == EncodingZlib {
		zw, err := zlib.NewWriterLevel(w.heapWriter(), zlib.BestCompression)
		if err != nil {
			return err
		}
		w.zw = zw
	} else if enc != EncodingNone {
		return fmt.Errorf("xar: unsupported encoding %q", enc)
	}
	return nil
}

// heapWriter appends stored bytes to the spool and hashes them.
func (w *Writer) heapWriter() io.Writer {
	return writerFunc(func(p []byte) (int, error) {
		n, err := w.spool.Write(p)
		w.cur.data.archived.Write(p[:n])
		w.cur.data.length += int64(n)
		w.heapLen += int64(n)
		return n, err
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// Write adds bytes to the current file member.
func (w *Writer) Write(p []byte) (int, error) {
	if w.cur == nil {
		return 0, fmt.Errorf("xar: write outside a file member")
	}
	w.cur.data.extracted.Write(p)
	w.cur.data.size += int64(len(p))
	if w.zw != nil {
		return w.zw.Write(p)
	}
	return w.heapWriter().Write(p)
}

func (w *Writer) endMember() error {
	if w.zw != nil {
		if err := w.zw.Close(); err != nil {
			return err
		}
		w.zw = nil
	}
	w.cur = nil
	return nil
}

// Close writes the header, the compressed TOC, its digest, the signature
// slots when signing, and the heap, and removes the spool. Nothing is
// written when signing fails. It does not close the underlying writer.
func (w *Writer) Close() error {
	defer w.removeSpool()
	if err := w.endMember(); err != nil {
		return err
	}
	var slots layout
	if w.Signer != nil {
		var err error
		if slots, err = w.Signer.layout(); err != nil {
			return err
		}
	}
	tocXML := w.toc(slots)
	var ztoc bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&ztoc, zlib.BestCompression)
	zw.Write(tocXML)
	zw.Close()
	digest := sha1.Sum(ztoc.Bytes())
	var signatures []byte
	if w.Signer != nil {
		var err error
		if signatures, err = w.Signer.sign(digest[:], slots, w.created); err != nil {
			return err
		}
	}
	hdr := make([]byte, headerSize)
	binary.BigEndian.PutUint32(hdr[0:], magic)
	binary.BigEndian.PutUint16(hdr[4:], headerSize)
	binary.BigEndian.PutUint16(hdr[6:], version)
	binary.BigEndian.PutUint64(hdr[8:], uint64(ztoc.Len()))
	binary.BigEndian.PutUint64(hdr[16:], uint64(len(tocXML)))
	binary.BigEndian.PutUint32(hdr[24:], cksumSHA1)
	for _, part := range [][]byte{hdr, ztoc.Bytes(), digest[:], signatures} {
		if _, err := w.w.Write(part); err != nil {
			return err
		}
	}
	if w.spool == nil {
		return nil
	}
	if _, err := w.spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(w.w, w.spool)
	return err
}

func (w *Writer) removeSpool() {
	if w.spool != nil {
		w.spool.Close()
		os.Remove(w.spool.Name())
		w.spool = nil
	}
}

// toc renders the table of contents; member data starts after the digest
// and the signature slots.
func (w *Writer) toc(slots layout) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<xar>\n <toc>\n")
	fmt.Fprintf(&b, "  <creation-time>%s</creation-time>\n", w.created.UTC().Format("2006-01-02T15:04:05"))
	b.WriteString("  <checksum style=\"sha1\">\n   <offset>0</offset>\n   <size>20</size>\n  </checksum>\n")
	if w.Signer != nil {
		w.Signer.writeSignatureElements(&b, slots)
	}
	base := digestSize + slots.total()
	for _, m := range w.root {
		writeMember(&b, m, "  ", base)
	}
	b.WriteString(" </toc>\n</xar>\n")
	return b.Bytes()
}

func writeMember(b *bytes.Buffer, m *member, indent string, base int64) {
	fmt.Fprintf(b, "%s<file id=\"%d\">\n", indent, m.id)
	in := indent + " "
	if d := m.data; d != nil {
		fmt.Fprintf(b, "%s<data>\n", in)
		fmt.Fprintf(b, "%s <offset>%d</offset>\n%s <length>%d</length>\n%s <size>%d</size>\n", in, base+d.start, in, d.length, in, d.size)
		fmt.Fprintf(b, "%s <encoding style=\"%s\"/>\n", in, d.encoding)
		fmt.Fprintf(b, "%s <archived-checksum style=\"sha1\">%s</archived-checksum>\n", in, hex.EncodeToString(d.archived.Sum(nil)))
		fmt.Fprintf(b, "%s <extracted-checksum style=\"sha1\">%s</extracted-checksum>\n", in, hex.EncodeToString(d.extracted.Sum(nil)))
		fmt.Fprintf(b, "%s</data>\n", in)
	}
	name := m.h.Name[strings.LastIndex(m.h.Name, "/")+1:]
	fmt.Fprintf(b, "%s<name>%s</name>\n", in, Escape(name))
	fmt.Fprintf(b, "%s<type>%s</type>\n", in, m.h.Type)
	fmt.Fprintf(b, "%s<mode>0%o</mode>\n", in, m.h.Mode&0o7777)
	fmt.Fprintf(b, "%s<uid>%d</uid>\n%s<gid>%d</gid>\n", in, m.h.UID, in, m.h.GID)
	user, group := m.h.User, m.h.Group
	if user == "" {
		user = "root"
	}
	if group == "" {
		group = "wheel"
	}
	fmt.Fprintf(b, "%s<user>%s</user>\n%s<group>%s</group>\n", in, Escape(user), in, Escape(group))
	for _, c := range m.children {
		writeMember(b, c, in, base)
	}
	fmt.Fprintf(b, "%s</file>\n", indent)
}

// Escape returns s as XML character data, for the TOC and the other XML
// documents of a flat package.
func Escape(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
