package managed

import (
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/managed/plisttest"
)

// readBound is the contract's "well under a second" with room for a slow,
// shared machine: the reader takes milliseconds on the worst file of the
// cap, a reader quadratic in it takes minutes.
const readBound = 5 * time.Second

// worstConf is a settings file of as many ignored lines as the cap
// holds, then the token.
func worstConf() []byte {
	return []byte(strings.Repeat("x\n", (settings.MaxFileSize-64)/2) + "ProvisionToken=" + canary + "\n")
}

// withinBound runs read and fails the test when it takes longer than
// readBound. A read that never ends is left behind in its goroutine.
func withinBound(t *testing.T, size int, read func()) {
	t.Helper()
	done := make(chan time.Duration, 1)
	go func() {
		began := time.Now()
		read()
		done <- time.Since(began)
	}()
	select {
	case took := <-done:
		t.Logf("%d bytes read in %v", size, took)
	case <-time.After(readBound):
		t.Fatalf("%d bytes not read within %v", size, readBound)
	}
}

// A settings file of as many ignored lines as the cap holds is read in
// time linear in its size, with a bounded number of notes.
func TestWorstSettingsFileReadInBoundedTime(t *testing.T) {
	data := worstConf()
	var f parsed
	withinBound(t, len(data), func() { f = parseConf(data) })
	if f.Settings[settings.ProvisionToken] != canary || len(f.Notes) > maxNotes+1 {
		t.Fatalf("token %v, %d notes", f.Settings[settings.ProvisionToken] == canary, len(f.Notes))
	}
}

func BenchmarkWorstFiles(b *testing.B) {
	for name, data := range plisttest.All(canary, settings.MaxValueLen) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for range b.N {
				parsePlist(data)
			}
		})
	}
	b.Run("settings-file", func(b *testing.B) {
		data := worstConf()
		b.SetBytes(int64(len(data)))
		for range b.N {
			parseConf(data)
		}
	})
}
