package codes

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var updateDoc = flag.Bool("update-doc", false, "rewrite the support doc's code table from Table and AdviceByCode")

const supportDoc = "provisioning-failure-codes.md"

// TestSupportDocMatchesTable holds docs/provisioning-failure-codes.md to
// the code table and its advice: the same rows, in the same order, each
// cell the advice's own words. Run with -update-doc to regenerate it.
func TestSupportDocMatchesTable(t *testing.T) {
	path := filepath.Join("..", "..", "docs", supportDoc)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if *updateDoc {
		data = []byte(replaceCodeTable(t, string(data)))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rows := docRows(string(data))
	if len(rows) != len(Table) {
		t.Fatalf("doc lists %d codes, table has %d", len(rows), len(Table))
	}
	for i, c := range Table {
		want := codeRow(c)
		if got := rows[i]; strings.Join(got, " | ") != strings.Join(want, " | ") {
			t.Errorf("row %d:\n doc  %q\n want %q (go test ./internal/codes -run SupportDoc -update-doc)", i, got, want)
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

const codeTableHeader = "| exit | stage | code | class | what happened | next safe action | evidence to ask for |\n|---|---|---|---|---|---|---|\n"

func codeRow(c Code) []string {
	a := AdviceByCode[c.Name]
	return []string{strconv.Itoa(c.Exit), c.Stage, c.Name, string(c.Class), a.Scenario, a.NextAction, a.Evidence}
}

// replaceCodeTable swaps the table under "## Codes" for one built from
// the data.
func replaceCodeTable(t *testing.T, doc string) string {
	t.Helper()
	head, rest, ok := strings.Cut(doc, "\n## Codes\n")
	if !ok {
		t.Fatal("no \"## Codes\" section")
	}
	start := strings.Index(rest, "\n|")
	end := strings.Index(rest[start+1:], "\n\n")
	if start < 0 || end < 0 {
		t.Fatal("no table under \"## Codes\"")
	}
	var b strings.Builder
	b.WriteString(codeTableHeader)
	for _, c := range Table {
		b.WriteString("| " + strings.Join(codeRow(c), " | ") + " |\n")
	}
	return head + "\n## Codes\n" + rest[:start+1] + strings.TrimSuffix(b.String(), "\n") + rest[start+1+end:]
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

// TestSupportDocReadingTheResultFile: support asks for `ctrld-install
// explain` first, and the doc says, for each OS, where ctrld's result file
// and the wrapper's kept copy are.
func TestSupportDocReadingTheResultFile(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", supportDoc))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	_, onePager, _ := strings.Cut(doc, "\n## Support one-pager")
	onePager, _, _ = strings.Cut(onePager, "\n## ")
	if first := strings.Index(onePager, "`"); first < 0 || !strings.HasPrefix(onePager[first:], "`ctrld-install explain`") {
		t.Error("the one-pager does not lead with `ctrld-install explain`")
	}
	_, section, ok := strings.Cut(doc, "\n## Reading the result file\n")
	if !ok {
		t.Fatal("no \"## Reading the result file\" section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	for _, osName := range []string{"macOS", "Linux", "Windows"} {
		_, sub, ok := strings.Cut(section, "\n### "+osName+"\n")
		if !ok {
			t.Errorf("no \"### %s\" under Reading the result file", osName)
			continue
		}
		sub, _, _ = strings.Cut(sub, "\n### ")
		for _, want := range []string{"explain", "provision_result.json", "detail.attempts", "ctrld-install-evidence.json"} {
			if !strings.Contains(sub, want) {
				t.Errorf("%s: %q not mentioned", osName, want)
			}
		}
	}
}

// TestIntuneReturnCodesMatchTable holds the return-code table in
// docs/intune.md to the code table: every failure code, in order, Retry
// when it is transient and Failed when terminal, and the Windows
// Installer defaults.
func TestIntuneReturnCodesMatchTable(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "intune.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(data), "### Return codes to enter")
	section, _, _ = strings.Cut(section, "\n## ")
	var fromTable []string
	defaults := map[string]string{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), "|")
		if len(cells) != 3 {
			continue
		}
		code, kind, meaning := strings.TrimSpace(cells[0]), strings.TrimSpace(cells[1]), strings.TrimSpace(cells[2])
		if strings.Contains(meaning, ": ") {
			fromTable = append(fromTable, code+" "+kind+" "+meaning)
		} else {
			defaults[code] = kind
		}
	}
	kinds := map[Class]string{Transient: "Retry", Terminal: "Failed"}
	var want []string
	for _, c := range Table {
		want = append(want, strconv.Itoa(c.Exit)+" "+kinds[c.Class]+" "+c.Stage+": "+c.Name)
	}
	if strings.Join(fromTable, "\n") != strings.Join(want, "\n") {
		t.Errorf("intune.md codes differ from the table:\n%s\nwant:\n%s", strings.Join(fromTable, "\n"), strings.Join(want, "\n"))
	}
	for code, kind := range map[string]string{"0": "Success", "1707": "Success", "3010": "Soft reboot", "1641": "Hard reboot", "1618": "Retry", "1603": "Failed"} {
		if defaults[code] != kind {
			t.Errorf("default %s should be %s, is %q", code, kind, defaults[code])
		}
	}
}

var (
	docLink     = regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`)
	docRepoPath = regexp.MustCompile("`((?:installers|wrapper|docs)/[^` ]+)`")
)

// TestAdminDocsNameFilesThatExist: every relative link and every
// repository path quoted in the admin docs names a file in the repository
// (the scripts and ADMX files the guides tell admins to upload).
func TestAdminDocsNameFilesThatExist(t *testing.T) {
	docs := filepath.Join("..", "..", "docs")
	for _, name := range []string{supportDoc, "intune.md", "jamf.md"} {
		data, err := os.ReadFile(filepath.Join(docs, name))
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, m := range docLink.FindAllStringSubmatch(string(data), -1) {
			paths = append(paths, filepath.Join(docs, m[1]))
		}
		for _, m := range docRepoPath.FindAllStringSubmatch(string(data), -1) {
			paths = append(paths, filepath.Join("..", "..", m[1]))
		}
		for _, p := range paths {
			if _, err := os.Stat(p); err != nil {
				t.Errorf("%s names %s, which does not exist", name, p)
			}
		}
	}
}

// TestIntuneGuideKeepsTheTokenOffCommandLines: the Windows guide leads
// with the policy key, its example install command carries no token, and
// it covers every MSI architecture.
func TestIntuneGuideKeepsTheTokenOffCommandLines(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "intune.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	policy := strings.Index(doc, "### Keep the token off command lines")
	option1 := strings.Index(doc, "## Option 1")
	if policy < 0 || option1 < 0 || policy > option1 {
		t.Fatal("the guide does not lead with keeping the token off command lines")
	}
	for i, block := range strings.Split(doc, "```") {
		if i%2 == 1 && strings.Contains(block, "install-msi") && strings.Contains(block, "PROVISION_TOKEN") {
			t.Errorf("an example install command carries the token:\n%s", block)
		}
	}
	for _, want := range []string{"installCommandLine", "IntuneManagementExtension", "-x64.msi", "-arm64.msi", "-x86.msi", "Operating system architecture",
		"install-msi ctrld-1.2.3-x64.msi HIDE_ARP=1", "ARPSYSTEMCOMPONENT", "SystemComponent=1"} {
		if !strings.Contains(doc, want) {
			t.Errorf("intune.md does not mention %q", want)
		}
	}
}
