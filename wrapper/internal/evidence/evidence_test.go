package evidence

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

var canary = []string{testenv.Canary}

func TestScrubKeepsWhatSupportNeeds(t *testing.T) {
	for _, s := range []string{
		"address already in use",
		"can't assign requested address",
		"127.0.0.1:53",
		"[2606:1a40:3::1]:443",
		"API rejected the request: HTTP 401 Unauthorized",
		`Post "https://api.controld.com/utility?platform=ctrld&version=v1.5.6": context deadline exceeded`,
		"launchctl bootstrap system/ctrld: Input/output error (5)",
	} {
		if got := Scrub(s, MaxMessageLen, canary); got != s {
			t.Errorf("Scrub(%q) = %q, want it unchanged", s, got)
		}
	}
}

func TestScrubRemovesSecrets(t *testing.T) {
	cases := []struct{ in, want string }{
		// A known token, wherever it is, even glued to other text.
		{"provision token: " + testenv.Canary, "provision token: [redacted]"},
		{"x" + testenv.Canary + "y", "x[redacted]y"},
		// A token nobody told us about, by its shape.
		{"failed with token org-v1-FAKETESTTOKEN0000 rejected", "failed with token [removed] rejected"},
		{"resolver 1a2b3c4d5e6f7 gone", "resolver [removed] gone"},
		{"id 123e4567-e89b-12d3-a456-426614174000", "id [removed]"},
		{"jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2ln", "jwt [removed]"},
		{strings.Repeat("a", 40), "[removed]"},
		// Control characters, ANSI escapes and non-ASCII become '?'.
		{"\x1b[31mred\x1b[0m\r\n", "?[31mred?[0m??"},
		{"caf\xc3\xa9 \xff", "caf?? ?"},
	}
	for _, c := range cases {
		if got := Scrub(c.in, MaxMessageLen, canary); got != c.want {
			t.Errorf("Scrub(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A token that straddles the cut, or hides behind a non-ASCII byte, must
// not survive in part.
func TestScrubRedactsBeforeCuttingAndMapping(t *testing.T) {
	long := strings.Repeat("x ", 60) + testenv.Canary + strings.Repeat(" y", 200)
	for _, max := range []int{MaxProtoLen, MaxAddrLen, 125, 130, MaxMessageLen} {
		got := Scrub(long, max, canary)
		if len(got) > max || strings.Contains(got, testenv.Canary[:10]) {
			t.Errorf("max %d: %q", max, got)
		}
	}
	odd := "tok?en-with-q"
	if got := Scrub("a tok\xffen-with-q b", MaxMessageLen, []string{odd}); got != "a [redacted] b" {
		t.Errorf("a secret holding '?' survived the mapping: %q", got)
	}
}

func TestCleanBoundsAttempts(t *testing.T) {
	var e Evidence
	for i := 0; i < 40; i++ {
		e.Attempts = append(e.Attempts, Attempt{Addr: strings.Repeat("1", 500), Proto: "udp-and-more", OSError: strings.Repeat("e ", 500)})
	}
	e.Message = strings.Repeat("m ", 1000)
	c := e.Clean(nil)
	if len(c.Attempts) != MaxAttempts || len(c.Message) > MaxMessageLen {
		t.Fatalf("%d attempts, message %d bytes", len(c.Attempts), len(c.Message))
	}
	for _, a := range c.Attempts {
		if len(a.Addr) > MaxAddrLen || len(a.Proto) > MaxProtoLen || len(a.OSError) > MaxOSErrorLen {
			t.Fatalf("attempt not bounded: %+v", a)
		}
	}
}

// freshResult writes a testdata result file into home, stamped at stamp.
func freshResult(t *testing.T, home, fixture string, stamp time.Time, edit func(map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", fixture))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	m["timestamp"] = stamp.UTC().Format(time.RFC3339)
	if edit != nil {
		edit(m)
	}
	data, _ = json.Marshal(m)
	if err := os.WriteFile(filepath.Join(home, "provision_result.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

var listenerFailed = codes.Failure(codes.ListenerBindFailed)

func TestFromResultFileListener(t *testing.T) {
	home := t.TempDir()
	began := time.Now()
	freshResult(t, home, "provision_result-listener.json", began, nil)
	r, ok := FromResultFile(home, began, listenerFailed, canary)
	if !ok {
		t.Fatal("a fresh, trusted result file gave no evidence")
	}
	if r.Line != listenerFailed.Line() || r.Message != "could not find available listen ip and port" || len(r.Attempts) != 4 {
		t.Fatalf("got %+v", r)
	}
	last := r.Attempts[3]
	if last != (Attempt{Addr: "10.9.8.7:53", Proto: "udp", OSError: "can't assign requested address"}) {
		t.Fatalf("last attempt %+v", last)
	}
}

func TestFromResultFileRedactsTheCanary(t *testing.T) {
	home := t.TempDir()
	began := time.Now()
	rejected := codes.Failure(codes.APIRejected)
	freshResult(t, home, "provision_result-api-rejected.json", began, func(m map[string]any) {
		m["message"] = "HTTP 400 for token " + testenv.Canary + " (short: " + testenv.Canary[:9] + ")"
	})
	r, ok := FromResultFile(home, began, rejected, canary)
	if !ok {
		t.Fatal("no evidence")
	}
	if r.Message != "HTTP 400 for token [redacted] (short: org-v1-ca)" {
		t.Fatalf("message %q", r.Message)
	}
	data, _ := json.Marshal(r)
	if strings.Contains(string(data), testenv.Canary) {
		t.Fatal("canary in the record")
	}
}

func TestFromResultFileRefusesUntrusted(t *testing.T) {
	began := time.Now()
	cases := map[string]struct {
		stamp   time.Time
		outcome codes.Outcome
		edit    func(map[string]any)
	}{
		"stale":                {began.Add(-2 * time.Minute), listenerFailed, nil},
		"planted in future":    {began.Add(time.Hour), listenerFailed, nil},
		"another code":         {began, codes.Failure(codes.ListenerConfiguredAddrUnavailable), nil},
		"exit disagrees":       {began, listenerFailed, func(m map[string]any) { m["exit_code"] = 42 }},
		"success":              {began, codes.Success, nil},
		"package stage":        {began, codes.Failure(codes.CtrldTimeout), nil},
		"message not a string": {began, listenerFailed, func(m map[string]any) { m["message"] = 7 }},
	}
	for name, c := range cases {
		home := t.TempDir()
		freshResult(t, home, "provision_result-listener.json", c.stamp, c.edit)
		if r, ok := FromResultFile(home, began, c.outcome, canary); ok {
			t.Errorf("%s: kept %+v", name, r)
		}
	}
	home := t.TempDir()
	elsewhere := t.TempDir()
	freshResult(t, elsewhere, "provision_result-listener.json", began, nil)
	os.Symlink(filepath.Join(elsewhere, "provision_result.json"), filepath.Join(home, "provision_result.json"))
	if _, ok := FromResultFile(home, began, listenerFailed, canary); ok {
		t.Error("symlink: kept")
	}
	if _, ok := FromResultFile(t.TempDir(), began, listenerFailed, canary); ok {
		t.Error("no file: kept")
	}
}

// A copy someone edited is cleaned again on the way out: known tokens
// redacted, token-looking words removed, bounds applied.
func TestLoadCleansATamperedCopy(t *testing.T) {
	dir := t.TempDir()
	line := listenerFailed.Line()
	tampered := `{"version":1,"line":"` + line + `","result_timestamp":"2026-08-18T12:00:00Z",` +
		`"message":"` + testenv.Canary + ` and org-v1-UNKNOWNTOKEN99 ` + strings.Repeat("z", 600) + `",` +
		`"attempts":[{"addr":"127.0.0.1:53\u001b[2J","proto":"udp","os_error":"address already in use"}]}`
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(tampered), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := Load(dir, line, time.Time{}, canary)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.Message, "[redacted] and [removed] ") || len(r.Message) > MaxMessageLen {
		t.Fatalf("message %q", r.Message)
	}
	if r.Attempts[0].Addr != "127.0.0.1:53?[2J" {
		t.Fatalf("addr %q", r.Attempts[0].Addr)
	}
	for _, bad := range []string{`{"version":2}`, `not json`, strings.Repeat(" ", maxStoredSize+1)} {
		os.WriteFile(filepath.Join(dir, FileName), []byte(bad), 0o600)
		if _, err := Load(dir, line, time.Time{}, canary); err != ErrNone {
			t.Errorf("%.20q: %v", bad, err)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
