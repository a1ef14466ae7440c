package release

import (
	"bytes"
	"strings"
	"testing"
)

// Every kind's line names its architectures and its signing inputs as
// the table holds them.
func TestWriteKindsRendersTheTable(t *testing.T) {
	var out bytes.Buffer
	if err := WriteKinds(&out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(Kinds)+1 {
		t.Fatalf("%d lines for %d kinds:\n%s", len(lines), len(Kinds), out.String())
	}
	for i, k := range Kinds {
		line := lines[i+1]
		if !strings.HasPrefix(line, k.Name+" ") {
			t.Errorf("line %d %q is not kind %s", i+1, line, k.Name)
		}
		for _, p := range k.Platforms {
			if !strings.Contains(line, p.Arch) {
				t.Errorf("%s: no %s in %q", k.Name, p.Arch, line)
			}
		}
		if k.HowToSign != "" && !strings.Contains(line, k.HowToSign) {
			t.Errorf("%s: signing inputs %q missing from %q", k.Name, k.HowToSign, line)
		}
	}
}
