package managed

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"howett.net/plist"

	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/managed/plisttest"
)

const canary = testenv.Canary

func plistBytes(t testing.TB, v any, format int) []byte {
	t.Helper()
	data, err := plist.Marshal(v, format)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// plistSettings is what the plist gives, notes and lost tokens aside.
func plistSettings(data []byte) (settings.Settings, error) {
	p, err := parsePlist(data)
	return p.Settings, err
}

func TestParsePlistBothFormats(t *testing.T) {
	prefs := map[string]any{
		"ProvisionToken":    canary,
		"CustomHostname":    "mac-01",
		"InterceptMode":     "intercept-dns",
		"UseDevEnvironment": true,
		"Unrelated":         []any{1, 2, 3},
	}
	for name, format := range map[string]int{"binary": plist.BinaryFormat, "xml": plist.XMLFormat} {
		t.Run(name, func(t *testing.T) {
			s, err := plistSettings(plistBytes(t, prefs, format))
			if err != nil {
				t.Fatal(err)
			}
			want := settings.Settings{settings.ProvisionToken: canary, settings.CustomHostname: "mac-01", settings.InterceptMode: "intercept-dns", settings.UseDevEnvironment: "true"}
			if len(s) != len(want) {
				t.Fatalf("got %v", len(s))
			}
			for k, v := range want {
				if s[k] != v {
					t.Errorf("%s: got %q want %q", k, s[k], v)
				}
			}
		})
	}
}

func TestParsePlistTypesAndCaps(t *testing.T) {
	s, err := plistSettings(plistBytes(t, map[string]any{
		"ProvisionToken":    strings.Repeat("a", settings.MaxValueLen+1),
		"CustomHostname":    42,
		"UseDevEnvironment": 1,
	}, plist.XMLFormat))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get(settings.ProvisionToken); ok {
		t.Error("kept an oversized token")
	}
	if _, ok := s[settings.CustomHostname]; ok {
		t.Error("kept a number as a hostname")
	}
	if !s.Bool(settings.UseDevEnvironment) {
		t.Error("integer 1 should mean true")
	}
}

// hugeStringPlist is a binary plist whose ProvisionToken string claims
// 2^64-1 bytes. Decoded unchecked, it kills the process.
func hugeStringPlist() []byte {
	var b bytes.Buffer
	b.WriteString("bplist00")
	offsets := []int{}
	offsets = append(offsets, b.Len())
	b.Write([]byte{0xd1, 0x01, 0x02}) // dict, one pair: key obj 1, value obj 2
	offsets = append(offsets, b.Len())
	b.WriteByte(0x5e)
	b.WriteString("ProvisionToken")
	offsets = append(offsets, b.Len())
	b.Write([]byte{0x5f, 0x13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	b.WriteString("short")
	table := b.Len()
	for _, o := range offsets {
		b.WriteByte(byte(o))
	}
	trailer := make([]byte, 32)
	trailer[6], trailer[7] = 1, 1
	binary.BigEndian.PutUint64(trailer[8:], uint64(len(offsets)))
	binary.BigEndian.PutUint64(trailer[16:], 0)
	binary.BigEndian.PutUint64(trailer[24:], uint64(table))
	b.Write(trailer)
	return b.Bytes()
}

func TestCraftedBinaryPlistIsRefused(t *testing.T) {
	if _, err := plistSettings(hugeStringPlist()); !errors.Is(err, ErrUnreadable) {
		t.Fatalf("got %v, want ErrUnreadable", err)
	}
	if _, err := parseBinaryPlist(hugeStringPlist()); err == nil {
		t.Fatal("structural check passed a 2^64-1 string")
	}
}

// Nesting and cycles below the top dictionary are never followed: the
// four keys still read. A top object that is not a dictionary gives none.
func TestCyclesAndDepthBelowTheTopDictDoNotMatter(t *testing.T) {
	if _, err := plistSettings(selfArrayPlist()); !errors.Is(err, ErrUnreadable) {
		t.Fatalf("a top-level array: %v", err)
	}
	var deep any = "leaf"
	for range 200 {
		deep = []any{deep}
	}
	for name, format := range map[string]int{"binary": plist.BinaryFormat} {
		s, err := plistSettings(plistBytes(t, map[string]any{"x": deep, "ProvisionToken": canary}, format))
		if err != nil || s[settings.ProvisionToken] != canary {
			t.Fatalf("%s: deep sibling lost the token: %v", name, err)
		}
	}
}

// selfArrayPlist is a binary plist whose only object is an array holding
// itself.
func selfArrayPlist() []byte {
	var b bytes.Buffer
	b.WriteString("bplist00")
	b.Write([]byte{0xa1, 0x00})
	table := b.Len()
	b.WriteByte(8)
	trailer := make([]byte, 32)
	trailer[6], trailer[7] = 1, 1
	binary.BigEndian.PutUint64(trailer[8:], 1)
	binary.BigEndian.PutUint64(trailer[24:], uint64(table))
	b.Write(trailer)
	return b.Bytes()
}

func TestReadPlistLimits(t *testing.T) {
	dir := t.TempDir()
	if _, err := readPlist(filepath.Join(dir, "missing.plist")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	big := filepath.Join(dir, "big.plist")
	os.WriteFile(big, bytes.Repeat([]byte(" "), settings.MaxFileSize+1), 0o644)
	if _, err := readPlist(big); !errors.Is(err, ErrUnreadable) {
		t.Fatalf("big file: %v", err)
	}
	garbage := filepath.Join(dir, "garbage.plist")
	os.WriteFile(garbage, []byte("<plist><dict><key>ProvisionToken"), 0o644)
	if _, err := readPlist(garbage); err == nil {
		t.Fatal("garbage parsed")
	}
}

type fakeRegistry struct {
	strs map[string]string
	ints map[string]uint64
}

func (f fakeRegistry) String(n string) (string, bool)  { v, ok := f.strs[n]; return v, ok }
func (f fakeRegistry) Integer(n string) (uint64, bool) { v, ok := f.ints[n]; return v, ok }

func TestFromRegistry(t *testing.T) {
	s := FromRegistry(fakeRegistry{
		strs: map[string]string{"ProvisionToken": canary, "InterceptMode": "standard"},
		ints: map[string]uint64{"UseDevEnvironment": 1, "CustomHostname": 7},
	})
	if s[settings.ProvisionToken] != canary || s[settings.InterceptMode] != "standard" || !s.Bool(settings.UseDevEnvironment) {
		t.Fatalf("unexpected settings (%d keys)", len(s))
	}
	if _, ok := s[settings.CustomHostname]; ok {
		t.Fatal("a DWORD hostname was accepted")
	}
}

// A token that a later entry of the same file overrode is kept aside for
// redaction, in every format; a file naming the key over and over keeps
// only a few.
func TestOverriddenTokensOfOneFileAreKept(t *testing.T) {
	var b plisttest.Builder
	key := b.Add(plisttest.ASCII("ProvisionToken"))
	lost, won := b.Add(plisttest.ASCII(canary)), b.Add(plisttest.ASCII("token-that-wins"))
	binary := b.Bytes(b.Add(plisttest.Dict([]uint32{key, key}, []uint32{lost, won})))
	xml := []byte(`<?xml version="1.0"?><plist version="1.0"><dict><key>ProvisionToken</key><string>` + canary +
		`</string><key>ProvisionToken</key><string>token-that-wins</string></dict></plist>`)
	for name, read := range map[string]func() (parsed, error){
		"binary": func() (parsed, error) { return parsePlist(binary) },
		"xml":    func() (parsed, error) { return parsePlist(xml) },
		"settings file": func() (parsed, error) {
			return parseConf([]byte("ProvisionToken=" + canary + "\nProvisionToken=token-that-wins\n")), nil
		},
	} {
		f, err := read()
		if err != nil || f.Settings[settings.ProvisionToken] != "token-that-wins" || len(f.LostTokens) != 1 || f.LostTokens[0] != canary {
			t.Errorf("%s: token %q, lost %d, %v", name, f.Settings[settings.ProvisionToken], len(f.LostTokens), err)
		}
	}
	var many plisttest.Builder
	var keys, values []uint32
	for i := range 3 * maxLostTokens {
		keys = append(keys, many.Add(plisttest.ASCII("ProvisionToken")))
		values = append(values, many.Add(plisttest.ASCII(canary+strconv.Itoa(i))))
	}
	f, err := parsePlist(many.Bytes(many.Add(plisttest.Dict(keys, values))))
	if err != nil || len(f.LostTokens) != maxLostTokens {
		t.Fatalf("kept %d overridden values, %v", len(f.LostTokens), err)
	}
}
