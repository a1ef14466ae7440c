package result

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

const canary = testenv.Canary

func write(t *testing.T, dir, stamp, stage, code string, exit int) {
	t.Helper()
	body := fmt.Sprintf(`{"version":1,"timestamp":%q,"stage":%q,"code":%q,"exit_code":%d,"message":"token %s","detail":{"token":%q}}`,
		stamp, stage, code, exit, canary, canary)
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestRead(t *testing.T) {
	start := time.Date(2026, 8, 18, 12, 0, 0, 700_000_000, time.UTC)
	same := "2026-08-18T12:00:00Z"
	tests := []struct {
		name               string
		stamp, stage, code string
		exit               int
		want               string
	}{
		{"fresh valid", same, "listener", "LISTENER_BIND_FAILED", 41, "LISTENER_BIND_FAILED"},
		{"later", "2026-08-18T12:01:00Z", "bootstrap", "TOKEN_EXPIRED", 34, "TOKEN_EXPIRED"},
		{"stale by a second", "2026-08-18T11:59:59Z", "listener", "LISTENER_BIND_FAILED", 41, ""},
		{"bad stamp", "yesterday", "listener", "LISTENER_BIND_FAILED", 41, ""},
		{"exit disagrees", same, "listener", "LISTENER_BIND_FAILED", 42, ""},
		{"stage disagrees", same, "service", "LISTENER_BIND_FAILED", 41, ""},
		{"unknown code", same, "bootstrap", "TOKEN_REVOKED", 37, ""},
		{"package stage", same, "package", "CTRLD_TIMEOUT", 63, ""},
		{"token as the code", same, "listener", canary, 41, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, tc.stamp, tc.stage, tc.code, tc.exit)
			got, err := load(dir, start, start.Add(time.Hour))
			c := got.Code
			if tc.want == "" {
				if err == nil {
					t.Fatalf("trusted %+v", c)
				}
				return
			}
			// Every field is the table's: nothing of the file's message or
			// detail (which hold the canary) can ride along.
			if want, _ := codes.Lookup(tc.want); err != nil || c != want {
				t.Fatalf("got %+v, %v; want the table's %+v", c, err, want)
			}
		})
	}
}

func TestReadRefusesFutureStamps(t *testing.T) {
	now := time.Date(2026, 8, 18, 12, 0, 0, 0, time.UTC)
	start := now.Add(-time.Minute)
	for stamp, trusted := range map[time.Time]bool{
		now:                                 true,
		now.Add(MaxClockSkew):               true,
		now.Add(MaxClockSkew + time.Second): false,
		time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC): false,
	} {
		dir := t.TempDir()
		write(t, dir, stamp.Format(time.RFC3339), "listener", "LISTENER_BIND_FAILED", 41)
		_, err := load(dir, start, now)
		if (err == nil) != trusted {
			t.Errorf("stamp %s: err %v, want trusted=%v", stamp.Format(time.RFC3339), err, trusted)
		}
	}
}

func TestReadRefusesLinksAndBigFiles(t *testing.T) {
	start := time.Date(2026, 8, 18, 12, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	elsewhere := t.TempDir()
	write(t, elsewhere, "2026-08-18T12:00:00Z", "listener", "LISTENER_BIND_FAILED", 41)
	if err := os.Symlink(filepath.Join(elsewhere, FileName), filepath.Join(dir, FileName)); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(dir, start); err == nil {
		t.Fatal("followed a symlink")
	}

	big := t.TempDir()
	body := `{"timestamp":"2026-08-18T12:00:00Z","stage":"listener","code":"LISTENER_BIND_FAILED","exit_code":41,"pad":"` + strings.Repeat("x", MaxSize) + `"}`
	os.WriteFile(filepath.Join(big, FileName), []byte(body), 0o600)
	if _, err := Read(big, start); err == nil {
		t.Fatal("trusted an oversized file")
	}

	fifoDir := t.TempDir()
	os.Mkdir(filepath.Join(fifoDir, FileName), 0o700)
	if _, err := Read(fifoDir, start); err == nil {
		t.Fatal("trusted a directory")
	}

	if _, err := Read(t.TempDir(), start); err == nil {
		t.Fatal("trusted a missing file")
	}
}

func TestReadsSharedFixture(t *testing.T) {
	data, err := os.ReadFile(testenv.Fixture(t, "ctrld-output/provision_result-listener.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, FileName), data, 0o600)
	c, err := Read(dir, time.Date(2026, 8, 18, 12, 0, 0, 0, time.UTC))
	if err != nil || c.Exit != 41 {
		t.Fatalf("got %+v, %v", c, err)
	}
}

func writeBody(t *testing.T, dir, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestFreeTextComesApartFromTheCode(t *testing.T) {
	start := time.Date(2026, 8, 18, 12, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	writeBody(t, dir, `{"timestamp":"2026-08-18T14:00:03+02:00","stage":"listener","code":"LISTENER_BIND_FAILED","exit_code":41,`+
		`"message":"token `+canary+`","detail":{"attempts":[{"addr":"127.0.0.1:53","proto":"udp","os_error":"`+canary+`"}]}}`)
	got, err := load(dir, start, start)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := codes.Lookup("LISTENER_BIND_FAILED"); got.Code != want {
		t.Fatalf("code %+v, want the table's %+v", got.Code, want)
	}
	if want := start.Add(3 * time.Second); !got.Stamp.Equal(want) || got.Stamp.Location() != time.UTC {
		t.Fatalf("stamp %v, want %v in UTC", got.Stamp, want)
	}
	text, err := got.FreeText()
	if err != nil {
		t.Fatal(err)
	}
	want := FreeText{Message: "token " + canary, Attempts: []Attempt{{Addr: "127.0.0.1:53", Proto: "udp", OSError: canary}}}
	if fmt.Sprint(text) != fmt.Sprint(want) {
		t.Fatalf("free text %+v, want %+v", text, want)
	}
}

// The decision reads stage, code and exit only: free text of another
// shape costs the evidence, never the code.
func TestCodeTrustedWhateverTheFreeText(t *testing.T) {
	start := time.Date(2026, 8, 18, 12, 0, 0, 0, time.UTC)
	head := `{"timestamp":"2026-08-18T12:00:00Z","stage":"listener","code":"LISTENER_BIND_FAILED","exit_code":41`
	for body, readable := range map[string]bool{
		head + `}`:                                     true,
		head + `,"message":null,"detail":null}`:        true,
		head + `,"message":7}`:                         false,
		head + `,"detail":"x"}`:                        false,
		head + `,"detail":{"attempts":[{"addr":53}]}}`: false,
	} {
		dir := t.TempDir()
		writeBody(t, dir, body)
		got, err := load(dir, start, start)
		if err != nil || got.Code.Exit != 41 {
			t.Errorf("%s: %+v, %v", body, got.Code, err)
			continue
		}
		text, err := got.FreeText()
		if (err == nil) != readable || err == nil && (text.Message != "" || text.Attempts != nil) {
			t.Errorf("%s: free text %+v, %v; want readable=%v and empty", body, text, err, readable)
		}
	}
}

func TestStampWithinIsToTheSecond(t *testing.T) {
	notBefore := time.Date(2026, 8, 18, 12, 0, 0, 700_000_000, time.UTC)
	now := notBefore.Add(time.Minute)
	for stamp, ok := range map[string]bool{
		"2026-08-18T12:00:00Z":      true,
		"2026-08-18T12:00:00.1Z":    true,
		"2026-08-18T11:59:59.9Z":    false,
		"2026-08-18T12:01:05.9Z":    true,
		"2026-08-18T12:01:06Z":      false,
		"2026-08-18T14:00:00+02:00": true,
		"2026-08-18 12:00:00":       false,
		"":                          false,
	} {
		got, within := StampWithin(stamp, notBefore, now)
		if within != ok || within && got.Location() != time.UTC {
			t.Errorf("%q: %v, %v; want within=%v, in UTC", stamp, got, within, ok)
		}
	}
}
