package managed

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

func TestParseConfComments(t *testing.T) {
	for line, want := range map[string]string{
		"CustomHostname=web-01":                    "web-01",
		"CustomHostname=web-01   # optional":       "web-01",
		"CustomHostname=web-01\t# optional":        "web-01",
		`CustomHostname="web-01"  # optional`:      "web-01",
		`CustomHostname='web # 01'`:                "web # 01",
		`CustomHostname="web-01" # a "quoted" cmt`: "web-01",
		"ProvisionToken=" + canary + "#x":          canary + "#x",
		"ProvisionToken=" + canary + " #x":         canary,
	} {
		f := parseConf([]byte(line + "\n"))
		s, notes := f.Settings, f.Notes
		k, _, _ := strings.Cut(line, "=")
		if got := s[settings.Key(k)]; got != want || len(notes) != 0 {
			t.Errorf("%q: got %q, notes %q; want %q", line, got, notes, want)
		}
	}
	for _, line := range []string{`CustomHostname="web-01`, `CustomHostname="web-01"x`, `CustomHostname="web-01"#x`} {
		f := parseConf([]byte(line + "\n"))
		s, notes := f.Settings, f.Notes
		if len(s) != 0 || len(notes) != 1 {
			t.Errorf("%q: got %d settings, notes %q; want it ignored with a note", line, len(s), notes)
		}
	}
}

func TestParseConfNotesNeverQuoteValues(t *testing.T) {
	body := canary + "\nOther=" + canary + "\nUseDevEnvironment=" + canary + "\nProvisionToken=\"" + canary + "\n" +
		"CustomHostname=" + strings.Repeat(canary, settings.MaxValueLen/len(canary)+1) + "\n"
	f := parseConf([]byte(body))
	s, notes := f.Settings, f.Notes
	if len(s) != 0 || len(notes) != 5 {
		t.Fatalf("got %d settings and notes %q", len(s), notes)
	}
	for _, n := range notes {
		if strings.Contains(n, canary) {
			t.Fatalf("note quotes the value: %q", n)
		}
	}
}

// The example in docs/linux.md, exactly as printed, must read as the doc
// says: a settings file an admin copies must not fail with exit 22.
func TestDocsExampleParses(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "docs", "linux.md"))
	if err != nil {
		t.Fatal(err)
	}
	example := DocsSettingsExample(t, doc)
	f := parseConf(example)
	s, notes := f.Settings, f.Notes
	if len(notes) != 0 {
		t.Fatalf("the doc's example draws notes: %q", notes)
	}
	if s[settings.CustomHostname] != "web-01" || s[settings.InterceptMode] != settings.InterceptStandard || s[settings.UseDevEnvironment] != "false" {
		t.Fatalf("the doc's example reads as %q", s)
	}
	if !settings.HostnameValid(s[settings.CustomHostname]) {
		t.Fatal("the doc's example hostname is invalid")
	}
	if s[settings.ProvisionToken] != "<token from the Control D dashboard>" {
		t.Fatalf("the token line reads as %q", s[settings.ProvisionToken])
	}
}

var settingsExample = regexp.MustCompile("(?s)## The settings file\n.*?```\n(.*?)```\n")

// DocsSettingsExample is the settings-file example of docs/linux.md.
func DocsSettingsExample(t testing.TB, doc []byte) []byte {
	t.Helper()
	m := settingsExample.FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/linux.md has no settings-file example")
	}
	return m[1]
}

// TestLinuxExampleGivesEverySetting: the settings-file example of
// docs/linux.md sets every setting of Table, one line each, in its order,
// and nothing else.
func TestLinuxExampleGivesEverySetting(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "docs", "linux.md"))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, line := range strings.Split(string(DocsSettingsExample(t, doc)), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			name, _, _ := strings.Cut(line, "=")
			keys = append(keys, name)
		}
	}
	var want []string
	for _, k := range settings.Keys {
		want = append(want, string(k))
	}
	if strings.Join(keys, ",") != strings.Join(want, ",") {
		t.Errorf("the example sets %v, the table has %v", keys, want)
	}
}

func TestFilesWarnOncePerRun(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "ctrld-install.conf")
	os.WriteFile(conf, []byte("ProvisionToken="+canary+"\nbogus\n"), 0o600)
	os.Chmod(conf, 0o666)
	prefs := filepath.Join(dir, "prefs.plist")
	os.WriteFile(prefs, plistBytes(t, map[string]any{"CustomHostname": 7, "ProvisionToken": canary}, 1), 0o644)
	var said []string
	f := &Files{Prefs: prefs, Conf: conf, Warn: func(m string) { said = append(said, m) }}
	for range 5 {
		if s := f.Read(); s[settings.ProvisionToken] != canary {
			t.Fatalf("prefs token lost: %q", s)
		}
	}
	if len(said) != 2 {
		t.Fatalf("want one warning per source, got %q", said)
	}
	for _, m := range said {
		if strings.Contains(m, canary) {
			t.Fatalf("warning holds the token: %q", m)
		}
	}
	if !strings.Contains(said[0], "CustomHostname has the wrong type") || !strings.Contains(said[1], "group- or world-writable") {
		t.Fatalf("warnings do not say why: %q", said)
	}
}

func errorIs(err, target error) bool { return errors.Is(err, target) }
