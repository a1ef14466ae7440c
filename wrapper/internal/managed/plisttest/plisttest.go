// Package plisttest builds hostile managed-settings files for tests: each
// is valid (or nearly) as far as the format goes, fits the 1 MiB cap, and
// costs a naive decoder far more memory or time than its size. Every file
// holds the token given, so a test can check the four keys still read
// and the token never leaks.
package plisttest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
)

// Limit is the managed-settings size cap the files stay within.
const Limit = 1 << 20

// Builder writes a binary plist (bplist00) object by object, with 4-byte
// offsets and references.
type Builder struct {
	objects [][]byte
}

// Add appends an encoded object and returns its reference.
func (b *Builder) Add(obj []byte) uint32 {
	b.objects = append(b.objects, obj)
	return uint32(len(b.objects) - 1)
}

// ASCII encodes an ASCII string object.
func ASCII(s string) []byte { return sized(0x50, len(s), []byte(s)) }

// Array encodes an array of references.
func Array(refs ...uint32) []byte { return sized(0xa0, len(refs), refBytes(refs)) }

// Dict encodes a dictionary: keys[i] maps to values[i].
func Dict(keys, values []uint32) []byte {
	return sized(0xd0, len(keys), append(refBytes(keys), refBytes(values)...))
}

func sized(kind byte, n int, body []byte) []byte {
	var out []byte
	if n < 15 {
		out = []byte{kind | byte(n)}
	} else {
		out = []byte{kind | 0x0f, 0x12, 0, 0, 0, 0}
		binary.BigEndian.PutUint32(out[2:], uint32(n))
	}
	return append(out, body...)
}

func refBytes(refs []uint32) []byte {
	out := make([]byte, 4*len(refs))
	for i, r := range refs {
		binary.BigEndian.PutUint32(out[4*i:], r)
	}
	return out
}

// Bytes writes the file with top as the top object.
func (b *Builder) Bytes(top uint32) []byte {
	var buf bytes.Buffer
	buf.WriteString("bplist00")
	offsets := make([]uint32, len(b.objects))
	for i, o := range b.objects {
		offsets[i] = uint32(buf.Len())
		buf.Write(o)
	}
	table := buf.Len()
	buf.Write(refBytes(offsets))
	trailer := make([]byte, 32)
	trailer[6], trailer[7] = 4, 4
	binary.BigEndian.PutUint64(trailer[8:], uint64(len(b.objects)))
	binary.BigEndian.PutUint64(trailer[16:], uint64(top))
	binary.BigEndian.PutUint64(trailer[24:], uint64(table))
	buf.Write(trailer)
	return buf.Bytes()
}

// withToken adds ProvisionToken=token and Bomb=bomb as the top dictionary.
func (b *Builder) withToken(token string, bomb uint32) []byte {
	k1, v1 := b.Add(ASCII("ProvisionToken")), b.Add(ASCII(token))
	k2 := b.Add(ASCII("Bomb"))
	return b.Bytes(b.Add(Dict([]uint32{k1, k2}, []uint32{v1, bomb})))
}

// SharedObjects is a billion laughs in binary: each of depth arrays holds
// fanout references to the one below, so the file is a few hundred bytes
// and a decoder that builds every value makes fanout^depth of them.
func SharedObjects(token string, depth, fanout int) []byte {
	var b Builder
	below := b.Add(ASCII("lol"))
	for range depth {
		refs := make([]uint32, fanout)
		for i := range refs {
			refs[i] = below
		}
		below = b.Add(Array(refs...))
	}
	return b.withToken(token, below)
}

// DeepBinary nests arrays n deep.
func DeepBinary(token string, n int) []byte {
	var b Builder
	below := b.Add(Array())
	for range n {
		below = b.Add(Array(below))
	}
	return b.withToken(token, below)
}

// RepeatedKeys is a top dictionary of as many entries as the cap allows,
// every one naming the same key object and the same value object, a
// string just over the value cap; the last entry holds the token.
func RepeatedKeys(token string, valueCap int) []byte {
	var b Builder
	key := b.Add(ASCII("ProvisionToken"))
	long := b.Add(ASCII(strings.Repeat("x", valueCap+1)))
	tok := b.Add(ASCII(token))
	n := (Limit - valueCap - 4096) / 8
	keys, values := make([]uint32, n), make([]uint32, n)
	for i := range keys {
		keys[i], values[i] = key, long
	}
	values[n-1] = tok
	return b.Bytes(b.Add(Dict(keys, values)))
}

// LongString gives an unrelated key a string of nearly the whole cap.
func LongString(token string) []byte {
	var b Builder
	return b.withToken(token, b.Add(ASCII(strings.Repeat("y", Limit-4096))))
}

const xmlHead = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<plist version="1.0"><dict>`
const xmlTail = "</dict></plist>\n"

func xmlWith(token, bomb string) []byte {
	return []byte(xmlHead + "<key>Bomb</key>" + bomb + "<key>ProvisionToken</key><string>" + token + "</string>" + xmlTail)
}

// DeepXML nests arrays as deep as the cap allows.
func DeepXML(token string) []byte {
	n := (Limit - 512) / len("<array></array>")
	return xmlWith(token, strings.Repeat("<array>", n)+strings.Repeat("</array>", n))
}

// DeepShortXML nests one-letter elements as deep as the cap allows: the
// most levels per byte.
func DeepShortXML(token string) []byte {
	n := (Limit - 512) / len("<a></a>")
	return xmlWith(token, strings.Repeat("<a>", n)+strings.Repeat("</a>", n))
}

// TinyXMLElements is an array of as many one-letter empty elements as the
// cap allows: the most tokens per byte.
func TinyXMLElements(token string) []byte {
	n := (Limit - 512) / len("<a/>")
	return xmlWith(token, "<array>"+strings.Repeat("<a/>", n)+"</array>")
}

// ManyXMLElements is an array of as many empty elements as the cap allows.
func ManyXMLElements(token string) []byte {
	n := (Limit - 512) / len("<true/>")
	return xmlWith(token, "<array>"+strings.Repeat("<true/>", n)+"</array>")
}

// ManyXMLAttributes gives one element as many attributes as the cap
// allows: a decoder holds them all at once, ten times the file's size.
func ManyXMLAttributes(token string) []byte {
	n := (Limit - 512) / len(` b=""`)
	return xmlWith(token, "<array"+strings.Repeat(` b=""`, n)+"/>")
}

// XMLEntities declares entities that expand to a billion copies.
func XMLEntities(token string) []byte {
	var dtd strings.Builder
	dtd.WriteString(`<!DOCTYPE plist [<!ENTITY a0 "lol">`)
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&dtd, `<!ENTITY a%d "%s">`, i, strings.Repeat(fmt.Sprintf("&a%d;", i-1), 10))
	}
	dtd.WriteString(`]>`)
	return []byte(`<?xml version="1.0"?>` + dtd.String() + `<plist version="1.0"><dict><key>Bomb</key><string>&a9;</string>` +
		"<key>ProvisionToken</key><string>" + token + "</string>" + xmlTail)
}

// Unreadable names the files of All that a reader must refuse: they give
// no settings at all.
var Unreadable = map[string]bool{"xml-entities": true, "many-xml-attrs": true}

// All names every hostile file, built for token.
func All(token string, valueCap int) map[string][]byte {
	return map[string][]byte{
		"shared-objects":     SharedObjects(token, 40, 14),
		"deep-binary":        DeepBinary(token, (Limit-1024)/9),
		"repeated-keys":      RepeatedKeys(token, valueCap),
		"long-string":        LongString(token),
		"deep-xml":           DeepXML(token),
		"many-xml-elements":  ManyXMLElements(token),
		"deep-short-xml":     DeepShortXML(token),
		"tiny-xml-elements":  TinyXMLElements(token),
		"xml-entities":       XMLEntities(token),
		"many-xml-attrs":     ManyXMLAttributes(token),
		"shared-offsets":     SharedOffsets(token),
		"overlapping-arrays": OverlappingArrays(token),
	}
}
