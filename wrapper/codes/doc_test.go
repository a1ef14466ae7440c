package codes

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSupportDocMatchesTable holds docs/provisioning-failure-codes.md to
// the code table: the same rows, in the same order, each with a scenario
// and a next action.
func TestSupportDocMatchesTable(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "provisioning-failure-codes.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := docRows(string(data))
	if len(rows) != len(Table) {
		t.Fatalf("doc lists %d codes, table has %d", len(rows), len(Table))
	}
	for i, c := range Table {
		r := rows[i]
		if r[0] != strconv.Itoa(c.Exit) || r[1] != c.Stage || r[2] != c.Name {
			t.Errorf("row %d: doc has %v, table has %d %s %s", i, r[:3], c.Exit, c.Stage, c.Name)
		}
		if len(r) < 5 || r[3] == "" || r[4] == "" {
			t.Errorf("%s: scenario or next action missing", c.Name)
		}
	}
	for _, s := range StageRanges {
		want := "| " + s.Stage + " | " + strconv.Itoa(s.Range.Min) + "–" + strconv.Itoa(s.Range.Max) + " |"
		if !strings.Contains(string(data), want) {
			t.Errorf("stage table lacks %q", want)
		}
	}
	if !strings.Contains(string(data), LinePattern) {
		t.Error("the doc's regular expression differs from LinePattern")
	}
}

// docRows returns the cells of the rows under the "## Codes" heading.
func docRows(doc string) [][]string {
	_, section, _ := strings.Cut(doc, "\n## Codes\n")
	section, _, _ = strings.Cut(section, "\n## ")
	var rows [][]string
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| exit") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	return rows
}

// TestIntuneReturnCodesMatchTable holds the return-code table in
// docs/intune.md to the code table: every failure code, in order, and the
// Windows Installer defaults.
func TestIntuneReturnCodesMatchTable(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "intune.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(data), "### Return codes to enter")
	section, _, _ = strings.Cut(section, "\n## ")
	var failed []string
	defaults := map[string]string{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), "|")
		if len(cells) != 3 {
			continue
		}
		code, kind, meaning := strings.TrimSpace(cells[0]), strings.TrimSpace(cells[1]), strings.TrimSpace(cells[2])
		if kind == "Failed" && code != "1603" {
			failed = append(failed, code+" "+meaning)
		} else {
			defaults[code] = kind
		}
	}
	var want []string
	for _, c := range Table {
		want = append(want, strconv.Itoa(c.Exit)+" "+c.Stage+": "+c.Name)
	}
	if strings.Join(failed, "\n") != strings.Join(want, "\n") {
		t.Errorf("intune.md failure codes differ from the table:\n%s\nwant:\n%s", strings.Join(failed, "\n"), strings.Join(want, "\n"))
	}
	for code, kind := range map[string]string{"0": "Success", "1707": "Success", "3010": "Soft reboot", "1641": "Hard reboot", "1618": "Retry"} {
		if defaults[code] != kind {
			t.Errorf("default %s should be %s, is %q", code, kind, defaults[code])
		}
	}
}
