package scan

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

const canary = testenv.Canary

type chunked struct {
	stream string // "out" or "err"
	data   string
}

func judge(t *testing.T, parts ...chunked) (codes.Code, bool) {
	t.Helper()
	var j Judge
	out, errs := j.NewStream(), j.NewStream()
	for _, p := range parts {
		w := out
		if p.stream == "err" {
			w = errs
		}
		w.Write([]byte(p.data))
	}
	out.Close()
	errs.Close()
	return j.Last()
}

func out(s string) chunked    { return chunked{"out", s} }
func stderr(s string) chunked { return chunked{"err", s} }

func TestScanner(t *testing.T) {
	const listener = "provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)"
	tests := []struct {
		name  string
		parts []chunked
		want  string // expected code name, "" for none
	}{
		{"plain line", []chunked{out(listener + "\n")}, "LISTENER_BIND_FAILED"},
		{"no newline at end", []chunked{out(listener)}, "LISTENER_BIND_FAILED"},
		{"timestamp and level prefix", []chunked{out("Nov 30 14:40:09.420 ERR " + listener + "\n")}, "LISTENER_BIND_FAILED"},
		{"ansi colour around", []chunked{out("\x1b[90mNov 30\x1b[0m \x1b[31mERR\x1b[0m \x1b[1m" + listener + "\x1b[0m\n")}, "LISTENER_BIND_FAILED"},
		{"ansi inside identifier", []chunked{out("provisioning failed: stage=\x1b[1mlistener\x1b[0m code=LISTENER_\x1b[31mBIND_FAILED (exit 4\x1b[0m1)\n")}, "LISTENER_BIND_FAILED"},
		{"crlf", []chunked{out(listener + "\r\n")}, "LISTENER_BIND_FAILED"},
		{"cr inside", []chunked{out("provisioning failed: stage=list\rener code=LISTENER_BIND_FAILED (exit 41)\r\n")}, "LISTENER_BIND_FAILED"},
		{"split writes", splitEvery(listener+"\n", 3), "LISTENER_BIND_FAILED"},
		{"split inside escape", []chunked{out("\x1b"), out("[3"), out("1m" + listener + "\x1b"), out("[0m\n")}, "LISTENER_BIND_FAILED"},
		{"stderr only", []chunked{stderr(listener + "\n")}, "LISTENER_BIND_FAILED"},
		{"last of several wins", []chunked{out(listener + "\n"), out("provisioning failed: stage=service code=SERVICE_START_FAILED (exit 52)\n")}, "SERVICE_START_FAILED"},
		{"last across streams wins", []chunked{out("provisioning failed: stage=service code=SERVICE_START_FAILED (exit 52)\n"), stderr(listener + "\n")}, "LISTENER_BIND_FAILED"},
		{"last in one line wins", []chunked{out(listener + " then provisioning failed: stage=bootstrap code=TOKEN_EXPIRED (exit 34)\n")}, "TOKEN_EXPIRED"},
		{"invalid later line keeps earlier", []chunked{out(listener + "\nprovisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 52)\n")}, "LISTENER_BIND_FAILED"},
		{"unknown code in range passes", []chunked{out("provisioning failed: stage=bootstrap code=TOKEN_REVOKED (exit 37)\n")}, "TOKEN_REVOKED"},
		{"unknown code out of range", []chunked{out("provisioning failed: stage=bootstrap code=TOKEN_REVOKED (exit 47)\n")}, ""},
		{"known code wrong exit", []chunked{out("provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 42)\n")}, ""},
		{"known code wrong stage", []chunked{out("provisioning failed: stage=service code=LISTENER_BIND_FAILED (exit 41)\n")}, ""},
		{"package stage refused", []chunked{out("provisioning failed: stage=package code=CTRLD_TIMEOUT (exit 63)\n")}, ""},
		{"unknown stage", []chunked{out("provisioning failed: stage=network code=NET_DOWN (exit 41)\n")}, ""},
		{"lowercase code", []chunked{out("provisioning failed: stage=listener code=listener_bind_failed (exit 41)\n")}, ""},
		{"leading zero exit", []chunked{out("provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 041)\n")}, ""},
		{"three digit exit", []chunked{out("provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 410)\n")}, ""},
		{"missing paren", []chunked{out("provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41\n")}, ""},
		{"look-alike wording", []chunked{out("provisioning failed : stage=listener code=LISTENER_BIND_FAILED (exit 41)\n")}, ""},
		{"non-CSI escape is text", []chunked{out("provisioning failed: stage=\x1b]listener code=LISTENER_BIND_FAILED (exit 41)\n")}, ""},
		{"split by newline", []chunked{out("provisioning failed: stage=listener\n code=LISTENER_BIND_FAILED (exit 41)\n")}, ""},
		{"token line is ignored", []chunked{out("FTL failed to fetch resolver uid with provision token: " + canary + "\n")}, ""},
		{"nul bytes and invalid utf8 around", []chunked{out("\x00\xff\xfe" + listener + "\x00\xc3\n")}, "LISTENER_BIND_FAILED"},
		{"overlong code", []chunked{out("provisioning failed: stage=service code=" + strings.Repeat("A", 65) + " (exit 55)\n")}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := judge(t, tc.parts...)
			if tc.want == "" {
				if ok {
					t.Fatalf("found %+v, want nothing", got)
				}
				return
			}
			if !ok || got.Name != tc.want {
				t.Fatalf("got %+v (found=%v), want %s", got, ok, tc.want)
			}
		})
	}
}

func splitEvery(s string, n int) []chunked {
	var parts []chunked
	for len(s) > n {
		parts = append(parts, out(s[:n]))
		s = s[n:]
	}
	return append(parts, out(s))
}

func TestIdentifierAfterHugeLine(t *testing.T) {
	var j Judge
	s := j.NewStream()
	junk := bytes.Repeat([]byte("x\x1b[31m"), 200_000)
	s.Write(junk)
	s.Write([]byte("provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)"))
	s.Write(junk)
	s.Close()
	if c, ok := j.Last(); !ok || c.Exit != 41 {
		t.Fatalf("got %+v %v", c, ok)
	}
	if cap(s.line) > maxLine {
		t.Fatalf("line buffer grew to %d bytes", cap(s.line))
	}
}

func TestIdentifierAcrossTrimBoundary(t *testing.T) {
	id := "provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)"
	for cut := 0; cut <= len(id); cut += 7 {
		var j Judge
		s := j.NewStream()
		s.Write(bytes.Repeat([]byte("y"), maxLine-cut))
		s.Write([]byte(id))
		s.Close()
		if _, ok := j.Last(); !ok {
			t.Fatalf("identifier straddling the trim at %d was lost", cut)
		}
	}
}

func TestPendingMatchSurvivesTrim(t *testing.T) {
	var j Judge
	s := j.NewStream()
	s.Write([]byte("provisioning failed: stage=service code=SERVICE_START_FAILED (exit 52)"))
	s.Write(bytes.Repeat([]byte("z"), 3*maxLine))
	if _, ok := j.Last(); ok {
		t.Fatal("a line was judged before it ended")
	}
	s.Close()
	if c, ok := j.Last(); !ok || c.Exit != 52 {
		t.Fatalf("got %+v %v", c, ok)
	}
}

// raceEnabled is set under go test -race (race_test.go).
var raceEnabled bool

// Both streams write at once; the judge must stay consistent. Data races
// show only under the race detector, so the test needs it.
func TestConcurrentStreams(t *testing.T) {
	if !raceEnabled {
		testenv.Unavailable(t, "the race detector (go test -race)")
	}
	var j Judge
	var wg sync.WaitGroup
	finals := []string{"code=TOKEN_EXPIRED (exit 34)", "code=API_UNREACHABLE (exit 30)"}
	for i, w := range []*Stream{j.NewStream(), j.NewStream()} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				w.Write([]byte("noise provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)\n"))
			}
			w.Write([]byte("provisioning failed: stage=bootstrap " + finals[i] + "\n"))
			w.Close()
		}()
	}
	wg.Wait()
	c, ok := j.Last()
	if !ok || (c != codes.TokenExpired && c != codes.APIUnreachable) {
		t.Fatalf("last is %+v, %v: not one of the streams' final lines", c, ok)
	}
}

func TestRealCtrldSamples(t *testing.T) {
	dir := testenv.Fixture(t, "ctrld-output")
	cases := map[string]string{
		"v1.5.6-shape-start-listener-41.txt": "LISTENER_BIND_FAILED",
		"v1.5.0-start-cd-org-no-network.txt": "",
		"v1.5.0-start-port53-busy.txt":       "",
		"v1.5.0-start-selfcheck-fails.txt":   "",
	}
	for name, want := range cases {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := judge(t, out(string(data)))
		if want == "" && ok || want != "" && got.Name != want {
			t.Errorf("%s: got %+v (found=%v), want %q", name, got, ok, want)
		}
	}
}

var lineGrammar = regexp.MustCompile(codes.LinePattern)

// FuzzScanner holds the scanner to its promise: whatever ctrld prints, the
// result is either nothing or a valid identifier whose rebuilt line matches
// the grammar and carries nothing planted in the input.
func FuzzScanner(f *testing.F) {
	f.Add([]byte("provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)\n"), 5)
	f.Add([]byte("\x1b[31mprovisioning failed: stage=bootstrap code=TOKEN_INVALID (exit 33)\x1b[0m\r\n"), 1)
	f.Add([]byte("FTL token: "+canary+" provisioning failed: stage=input code=X_"+canary+" (exit 21)"), 9)
	f.Add([]byte("provisioning failed: stage=service code=NEW_CODE (exit 58)"), 100)
	f.Fuzz(func(t *testing.T, data []byte, split int) {
		if split < 1 {
			split = 1
		}
		planted := append([]byte(canary), data...)
		var j Judge
		s := j.NewStream()
		for p := planted; len(p) > 0; {
			k := min(split, len(p))
			s.Write(p[:k])
			p = p[k:]
		}
		s.Close()
		c, ok := j.Last()
		if !ok {
			return
		}
		if _, valid := codes.ValidFromCtrld(c.Stage, c.Name, c.Exit, true); !valid {
			t.Fatalf("invalid identifier accepted: %+v", c)
		}
		line := codes.Failure(c).Line()
		if !lineGrammar.MatchString(line) {
			t.Fatalf("line breaks the grammar: %q", line)
		}
		if strings.Contains(line, canary) {
			t.Fatalf("canary reached the line: %q", line)
		}
	})
}

func BenchmarkScanThroughput(b *testing.B) {
	chunk := bytes.Repeat([]byte("\x1b[90mNov 30 14:40:10.001\x1b[0m \x1b[31mERR\x1b[0m \x1b[1mctrld service may not have started\x1b[0m error=\"dial tcp\"\r\n"), 400)
	b.SetBytes(int64(len(chunk)))
	var j Judge
	s := j.NewStream()
	for b.Loop() {
		s.Write(chunk)
	}
	s.Close()
}

func BenchmarkScanNoNewlines(b *testing.B) {
	chunk := bytes.Repeat([]byte("A"), 32<<10)
	b.SetBytes(int64(len(chunk)))
	var j Judge
	s := j.NewStream()
	for b.Loop() {
		s.Write(chunk)
	}
	s.Close()
}
