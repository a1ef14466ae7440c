package names

import (
	"strings"
	"testing"
)

// Every binary name has its line, in the same order, and no two lines
// share a display name (Windows refuses a second service with one).
func TestCtrldLinesFollowTheNames(t *testing.T) {
	if len(CtrldLines) != len(CtrldNames) {
		t.Fatalf("%d lines for %d names", len(CtrldLines), len(CtrldNames))
	}
	seen := map[string]bool{}
	for i, l := range CtrldLines {
		if l.Binary != CtrldNames[i] {
			t.Errorf("line %d is %s, name %s", i, l.Binary, CtrldNames[i])
		}
		if seen[l.DisplayName] {
			t.Errorf("display name %q twice", l.DisplayName)
		}
		seen[l.DisplayName] = true
		if LineOf(l.Binary) != l {
			t.Errorf("LineOf(%s) = %+v", l.Binary, LineOf(l.Binary))
		}
		if others := OtherLines(l.Binary); len(others) != len(CtrldLines)-1 {
			t.Errorf("OtherLines(%s) = %+v", l.Binary, others)
		}
	}
	if got := LineOf("ctrld-nightly"); got.Binary != "ctrld-nightly" {
		t.Errorf("an unknown name keeps its own: %+v", got)
	}
}

// The home files are ctrld.toml, ctrld.log and .1-.4, ctrld-journal.log
// and .1-.2.
func TestCtrldLineHomeFiles(t *testing.T) {
	want := "ctrld.toml ctrld.log ctrld.log.1 ctrld.log.2 ctrld.log.3 ctrld.log.4 ctrld-journal.log ctrld-journal.log.1 ctrld-journal.log.2"
	if got := strings.Join(CtrldLineHomeFiles(), " "); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
