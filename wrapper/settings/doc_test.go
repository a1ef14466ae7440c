package settings

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

var updateDoc = flag.Bool("update-doc", false, "rewrite the guides' settings tables from Table")

// settingsTable is a table of the guides with one row for each setting,
// in Table's order, built by row, then the rows extra gives.
type settingsTable struct {
	doc, header string
	row         func(Setting) string
	extra       func() []string
}

var guideTables = []settingsTable{
	{doc: "intune.md", header: "| MSI property | settings key | values |", row: msiRow, extra: msiOnlyRows},
	{doc: "jamf.md", header: "| key | type | value |", row: profileRow},
}

func msiRow(s Setting) string {
	values := s.Doc.Values
	if s.Kind == Bool {
		values += "; `1` or `0`"
	}
	if s.Secret {
		values += "; hidden from the MSI log"
	}
	return "| `" + s.MSIProperty + "` | " + string(s.Key) + " | " + values + " |"
}

// plistTypes are the types a profile gives each kind of setting.
var plistTypes = map[Kind]string{Text: "string", Bool: "boolean"}

func profileRow(s Setting) string {
	return "| `" + string(s.Key) + "` | " + plistTypes[s.Kind] + " | " + s.Doc.Values + " |"
}

// msiOnlyRows are the MSI's own properties, which set no settings key.
func msiOnlyRows() []string {
	var rows []string
	for _, p := range MSIOnlyProperties {
		rows = append(rows, "| `"+p.Property+"` | none | "+p.Values+" |")
	}
	return rows
}

// TestGuideTablesMatchTable holds the settings tables of the Windows and
// Jamf guides to Table: the same settings, in the same order, each cell
// the table's own words. Run with -update-doc to regenerate them.
func TestGuideTablesMatchTable(t *testing.T) {
	for _, g := range guideTables {
		path := filepath.Join(testenv.RepoRoot(), "docs", g.doc)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		head, rows, tail, ok := cutTable(string(data), g.header)
		if !ok {
			t.Fatalf("%s: no table headed %q", g.doc, g.header)
		}
		var want []string
		for _, s := range Table {
			want = append(want, g.row(s))
		}
		if g.extra != nil {
			want = append(want, g.extra()...)
		}
		if *updateDoc {
			rows = want
			if err := os.WriteFile(path, []byte(head+strings.Join(want, "\n")+tail), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if strings.Join(rows, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\n doc  %q\n want %q (go test ./wrapper/settings -run GuideTables -update-doc)", g.doc, rows, want)
		}
	}
}

// cutTable splits doc around the rows of the table under header.
func cutTable(doc, header string) (head string, rows []string, tail string, ok bool) {
	i := strings.Index(doc, "\n"+header+"\n")
	if i < 0 {
		return "", nil, "", false
	}
	start := i + len(header) + 2
	if j := strings.IndexByte(doc[start:], '\n'); j >= 0 && strings.HasPrefix(doc[start:], "|---") {
		start += j + 1
	}
	end := start
	for end < len(doc) && strings.HasPrefix(doc[end:], "|") {
		n := strings.IndexByte(doc[end:], '\n')
		if n < 0 {
			n = len(doc) - end
		}
		rows = append(rows, doc[end:end+n])
		end += n + 1
	}
	return doc[:start], rows, "\n" + doc[end:], true
}

// keysSentence names every key, with the values of an enumerated one, as
// the guides list them.
func keysSentence() string {
	var names []string
	for _, s := range Table {
		name := "`" + string(s.Key) + "`"
		if len(s.Choices) > 0 {
			name += " (`" + strings.Join(s.ChoiceValues(), "` or `") + "`)"
		}
		names = append(names, name)
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// TestDocsListEveryKey: where the README and the guides list the keys in
// prose, they list those of Table, in its order.
func TestDocsListEveryKey(t *testing.T) {
	want := keysSentence()
	for _, doc := range []string{"README.md", filepath.Join("docs", "design.md"), filepath.Join("docs", "intune.md")} {
		data, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), doc))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(strings.Fields(string(data)), " "), want) {
			t.Errorf("%s does not list the keys as %q", doc, want)
		}
	}
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
	for _, k := range Keys {
		want = append(want, string(k))
	}
	if strings.Join(keys, ",") != strings.Join(want, ",") {
		t.Errorf("the example sets %v, the table has %v", keys, want)
	}
}
