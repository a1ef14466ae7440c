package managed

import (
	"errors"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"

	"howett.net/plist"

	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/managed/plisttest"
)

// maxParseAlloc bounds what parsing a file of n bytes may allocate in
// all, garbage included: linear in the file (encoding/xml allocates a
// little for every token), never what its structure claims. The peak that
// matters, RSS, is measured on the real wrapper in the wrapper package.
func maxParseAlloc(n int) uint64 { return 64*uint64(n) + 1<<20 }

// Each hostile shape reads in bounded memory and time, keeps the token
// when the file is a valid plist, and never puts the token in a note.
func TestHostileFilesReadInBoundedMemoryAndTime(t *testing.T) {
	for name, data := range plisttest.All(canary, settings.MaxValueLen) {
		t.Run(name, func(t *testing.T) {
			if len(data) > settings.MaxFileSize {
				t.Fatalf("%d bytes: over the cap, the test proves nothing", len(data))
			}
			var f parsed
			var err error
			var n uint64
			withinBound(t, len(data), func() { n = testenv.Allocated(func() { f, err = parsePlist(data) }) })
			s, notes := f.Settings, f.Notes
			t.Logf("%s: %d bytes in, %d bytes allocated", name, len(data), n)
			if n > maxParseAlloc(len(data)) {
				t.Fatalf("allocated %d bytes for a %d-byte file", n, len(data))
			}
			if plisttest.Unreadable[name] {
				if err == nil {
					t.Fatal("accepted")
				}
				return
			}
			if err != nil || s[settings.ProvisionToken] != canary {
				t.Fatalf("token lost: %v", err)
			}
			if strings.Contains(strings.Join(notes, " "), canary) {
				t.Fatal("a note holds the token")
			}
		})
	}
}

// FuzzParsePlist: no input may crash the reader, keep an oversized value,
// or allocate beyond the bound, whatever shape it has.
func FuzzParsePlist(f *testing.F) {
	f.Add(hugeStringPlist())
	f.Add(selfArrayPlist())
	f.Add(plistBytes(f, map[string]any{"ProvisionToken": canary, "UseDevEnvironment": true}, plist.BinaryFormat))
	f.Add(plistBytes(f, map[string]any{"CustomHostname": "x", "UseDevEnvironment": 1}, plist.XMLFormat))
	f.Add(plisttest.SharedObjects(canary, 30, 15))
	f.Add(plisttest.DeepBinary(canary, 2000))
	f.Add(plisttest.XMLEntities(canary))
	f.Add([]byte(strings.Repeat("<array>", 5000)))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > settings.MaxFileSize {
			return
		}
		var s settings.Settings
		var err error
		if n := testenv.Allocated(func() { s, err = plistSettings(data) }); n > maxParseAlloc(len(data)) {
			t.Fatalf("allocated %d bytes for %d input bytes", n, len(data))
		}
		if err != nil {
			return
		}
		for k, v := range s {
			if len(v) > settings.MaxValueLen {
				t.Fatalf("%s: %d bytes kept", k, len(v))
			}
			_ = v + "" // a broken string would crash here
		}
	})
}

// The stream reader matches end tags itself: a file that is not well
// formed gives no settings, as it would give none to macOS.
func TestXMLPlistMustBeWellFormed(t *testing.T) {
	head := `<?xml version="1.0"?><plist version="1.0">`
	for name, body := range map[string]string{
		"mismatched end":    `<dict><key>ProvisionToken</key><string>` + canary + `</b></dict>`,
		"unclosed":          `<dict><key>ProvisionToken</key><string>` + canary + `</string>`,
		"key without value": `<dict><key>ProvisionToken</key></dict>`,
		"not a dict":        `<array><string>` + canary + `</string></array>`,
		"element in a key":  `<dict><key>Provision<b/>Token</key><string>x</string></dict>`,
		"mismatch skipped":  `<dict><key>X</key><array><a></b></array><key>ProvisionToken</key><string>x</string></dict>`,
	} {
		if s, err := plistSettings([]byte(head + body + `</plist>`)); !errors.Is(err, ErrUnreadable) {
			t.Errorf("%s: got %d settings, %v", name, len(s), err)
		}
	}
	good := head + `<!-- managed --><dict><key>X</key><dict><key>ProvisionToken</key><string>inner</string></dict>` +
		`<key>ProvisionToken</key><string>` + canary + `</string></dict></plist>`
	if s, err := plistSettings([]byte(good)); err != nil || s[settings.ProvisionToken] != canary {
		t.Fatalf("nested same-named key confused the reader: %q %v", s[settings.ProvisionToken], err)
	}
}
