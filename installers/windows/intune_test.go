package windows

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

func TestReturnCodesJSON(t *testing.T) {
	var buf bytes.Buffer
	if _, err := (ReturnCodesFile{}).Build(&buf); err != nil {
		t.Fatal(err)
	}
	var got []ReturnCode
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	byCode := map[int]string{}
	for _, rc := range got {
		if rc.ODataType != "#microsoft.graph.win32LobAppReturnCode" {
			t.Fatalf("odata type %q", rc.ODataType)
		}
		if _, dup := byCode[rc.ReturnCode]; dup {
			t.Fatalf("code %d twice", rc.ReturnCode)
		}
		byCode[rc.ReturnCode] = rc.Type
	}
	for code, kind := range map[int]string{0: "success", 1707: "success", 3010: "softReboot", 1641: "hardReboot", 1618: "retry", 1603: "failed"} {
		if byCode[code] != kind {
			t.Errorf("%d: %q, want %q", code, byCode[code], kind)
		}
	}
	want := map[codes.Class]string{codes.Transient: "retry", codes.Terminal: "failed"}
	for _, c := range codes.Table {
		if byCode[c.Exit] != want[c.Class] {
			t.Errorf("%s (%d, %s): %q, want %q", c.Name, c.Exit, c.Class, byCode[c.Exit], want[c.Class])
		}
	}
	for code, kind := range map[int]string{30: "retry", 67: "retry", 63: "retry", 33: "failed", 41: "failed"} {
		if byCode[code] != kind {
			t.Errorf("%d: %q, want %q", code, byCode[code], kind)
		}
	}
	if len(got) != len(codes.Table)+6 {
		t.Errorf("%d entries", len(got))
	}
}

// The docs' table and the JSON list the same codes with the same types.
func TestReturnCodesMatchDocs(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "docs", "intune.md"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{"Success": "success", "Soft reboot": "softReboot", "Hard reboot": "hardReboot", "Retry": "retry", "Failed": "failed"}
	_, section, _ := strings.Cut(string(doc), "### Return codes to enter")
	section, _, _ = strings.Cut(section, "\n## ")
	var fromDoc []string
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), "|")
		if len(cells) == 3 && kinds[strings.TrimSpace(cells[1])] != "" {
			fromDoc = append(fromDoc, strings.TrimSpace(cells[0])+" "+kinds[strings.TrimSpace(cells[1])])
		}
	}
	var fromJSON []string
	for _, rc := range ReturnCodes() {
		fromJSON = append(fromJSON, strconv.Itoa(rc.ReturnCode)+" "+rc.Type)
	}
	if strings.Join(fromDoc, ",") != strings.Join(fromJSON, ",") {
		t.Errorf("docs %v\njson %v", fromDoc, fromJSON)
	}
}
