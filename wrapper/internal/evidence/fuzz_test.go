package evidence

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/result"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/secret"
)

// FuzzClean takes a result file's free text through the one reader (the
// fuzzed file, made trusted for the listener code), cleans it, writes the
// copy, reads it back and cleans it again: the invariants hold at every
// step and the copy survives the round trip unchanged.
func FuzzClean(f *testing.F) {
	for _, name := range []string{"provision_result-listener.json", "provision_result-api-rejected.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"message":"token ` + testenv.Canary + `\u00e9\u001b[0m","detail":{"attempts":[{"addr":"` + testenv.Canary + `"}]}}`))
	dir, home := f.TempDir(), f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		began := time.Now()
		if !trustedFile(home, data, began) {
			return
		}
		got, ok := FromResultFile(home, began, listenerFailed, canary)
		if !ok {
			// Only free text not of ctrld's shape may cost the evidence.
			trusted, err := result.Load(home, began)
			if _, terr := trusted.FreeText(); err != nil || terr == nil {
				t.Fatalf("no evidence from a trusted file: %v", err)
			}
			return
		}
		e := got.Evidence
		checkClean(t, e)
		if again := e.Clean(canary); mustJSON(t, again) != mustJSON(t, e) {
			t.Fatalf("Clean is not idempotent:\n%s\n%s", mustJSON(t, e), mustJSON(t, again))
		}
		r := Record{Line: "provisioning complete (exit 0)", ResultStamp: "2026-08-18T12:00:00Z", Evidence: e}
		if err := Save(dir, r); err != nil {
			t.Fatal(err)
		}
		back, err := Load(dir, r.Line, time.Time{}, canary)
		if err != nil {
			t.Fatal(err)
		}
		r.Version = recordVersion
		if mustJSON(t, back) != mustJSON(t, r) {
			t.Fatalf("round trip changed the copy:\n%s\n%s", mustJSON(t, r), mustJSON(t, back))
		}
	})
}

// trustedFile writes data into home as a result file whose stamp, stage,
// code and exit the wrapper trusts for listenerFailed; false when data is
// no JSON object.
func trustedFile(home string, data []byte, stamp time.Time) bool {
	var m map[string]any
	if json.Unmarshal(data, &m) != nil || m == nil {
		return false
	}
	m["timestamp"] = stamp.UTC().Format(time.RFC3339)
	m["stage"], m["code"], m["exit_code"] = listenerFailed.Code.Stage, listenerFailed.Code.Name, listenerFailed.Code.Exit
	data, err := json.Marshal(m)
	return err == nil && os.WriteFile(filepath.Join(home, "provision_result.json"), data, 0o600) == nil
}

func checkClean(t *testing.T, e Evidence) {
	t.Helper()
	if len(e.Attempts) > MaxAttempts || len(e.Message) > MaxMessageLen {
		t.Fatalf("not bounded: %d attempts, message %d bytes", len(e.Attempts), len(e.Message))
	}
	fields := []string{e.Message}
	for _, a := range e.Attempts {
		if len(a.Addr) > MaxAddrLen || len(a.Proto) > MaxProtoLen || len(a.OSError) > MaxOSErrorLen {
			t.Fatalf("attempt not bounded: %+v", a)
		}
		fields = append(fields, a.Addr, a.Proto, a.OSError)
	}
	for _, s := range fields {
		if strings.Contains(s, testenv.Canary) {
			t.Fatalf("canary kept: %q", s)
		}
		for i := 0; i < len(s); i++ {
			if s[i] < 0x20 || s[i] > 0x7e {
				t.Fatalf("byte %#x kept in %q", s[i], s)
			}
		}
		for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r > 0x7f || !secret.IsWordChar(byte(r)) }) {
			if secret.TokenShaped(w) {
				t.Fatalf("token-like word %q kept in %q", w, s)
			}
		}
	}
}
