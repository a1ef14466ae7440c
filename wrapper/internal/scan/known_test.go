package scan

import (
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// A token made only of code characters could pass every check of an
// identifier; a code that contains or equals a token the run knows is
// never valid, and an earlier valid line stays the last valid one.
func TestCodeHoldingAKnownTokenIsNotValid(t *testing.T) {
	for _, code := range []string{upperCanary, "X_" + upperCanary + "_Y"} {
		j := Judge{Known: []string{"other-token", upperCanary}}
		s := j.NewStream()
		s.Write([]byte("provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)\n"))
		s.Write([]byte("provisioning failed: stage=input code=" + code + " (exit 21)\n"))
		s.Close()
		c, ok := j.Last()
		if !ok || c != codes.ListenerBindFailed {
			t.Fatalf("code %s: got %+v, %v; want LISTENER_BIND_FAILED", code, c, ok)
		}
	}
	if _, ok := LastInLine([]byte("provisioning failed: stage=input code="+upperCanary+" (exit 21)"), upperCanary); ok {
		t.Fatal("LastInLine passed a known token through")
	}
}

// A code that shares a run of a dozen characters with a known token,
// ignoring case, is not valid either: here 24 of the token's 28
// characters, upper-cased. A code sharing fewer stays valid.
func TestCodeSharingARunOfAKnownTokenIsNotValid(t *testing.T) {
	code := strings.ToUpper(testenv.CodeCanary[:24])
	j := Judge{Known: []string{"other-token", testenv.CodeCanary}}
	s := j.NewStream()
	s.Write([]byte("provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)\n"))
	s.Write([]byte("provisioning failed: stage=input code=" + code + " (exit 28)\n"))
	s.Close()
	if c, ok := j.Last(); !ok || c != codes.ListenerBindFailed {
		t.Fatalf("code %s: got %+v, %v; want LISTENER_BIND_FAILED", code, c, ok)
	}
	short := strings.ToUpper(testenv.CodeCanary[:11])
	if c, ok := LastInLine([]byte("provisioning failed: stage=input code="+short+" (exit 28)"), testenv.CodeCanary); !ok || c.Name != short {
		t.Fatalf("a code sharing 11 characters was refused: %+v", c)
	}
}
