package scan

import (
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

// upperCanary is made only of code characters, so, unlike the lower-case
// canary, it would pass the identifier's checks if the scanner ever let
// it into a code: the invariant below can fire.
const upperCanary = "QZX_CANARY_TOKEN_UPPER"

func TestUpperCanaryIsAValidCode(t *testing.T) {
	line := "provisioning failed: stage=input code=" + upperCanary + " (exit 21)"
	c, ok := LastInLine([]byte(line))
	if !ok || c.Name != upperCanary {
		t.Fatalf("the canary as a code is not even read: %+v", c)
	}
}

// FuzzScannerUpperCanary plants the upper-case canary where no identifier
// can take it from: before the data and after it on the same stream (no
// code= precedes it, no exit follows it), and between chunks on the other
// stream, as lines with an exit but no code= (which only the data stream
// can supply). A scanner that mixed streams, kept stale bytes
// across a trim or sliced a line wrongly would put it into a code.
func FuzzScannerUpperCanary(f *testing.F) {
	f.Add([]byte("provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)\n"), 5)
	f.Add([]byte("_BIND (exit 41)\nprovisioning failed: stage=input code="), 3)
	f.Add([]byte("\x1b[31mprovisioning failed: stage=bootstrap code=\x1b[0mTOKEN_INVALID (exit 33)\r\n"), 1)
	f.Add([]byte(" code=X"+strings.Repeat("A", maxLine)+" (exit 21)\nprovisioning failed: stage=input code="), 4096)
	f.Add([]byte("provisioning failed: stage=service code=NEW_CODE (exit 58)"), 100)
	f.Fuzz(func(t *testing.T, data []byte, split int) {
		split = max(split, 1)
		var j Judge
		out, other := j.NewStream(), j.NewStream()
		out.Write([]byte(upperCanary))
		for p := data; len(p) > 0; {
			k := min(split, len(p))
			out.Write(p[:k])
			other.Write([]byte(upperCanary + " (exit 21)\n"))
			p = p[k:]
		}
		out.Write([]byte(upperCanary))
		out.Close()
		other.Close()
		c, ok := j.Last()
		if !ok {
			return
		}
		if _, valid := codes.ValidFromCtrld(c.Stage, c.Name, c.Exit, true); !valid {
			t.Fatalf("invalid identifier accepted: %+v", c)
		}
		if line := codes.Failure(c).Line(); strings.Contains(line, upperCanary) {
			t.Fatalf("canary reached the line: %q", line)
		}
	})
}
