package fleet

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// fleetPage is a report over every fixture and the hostile export.
func fleetPage(t *testing.T) (*Tally, []byte) {
	t.Helper()
	tl := readFixtures(t, "", "jamf-advanced-search.csv", "intune-device-install-status.csv", "install.log", "last-lines.txt")
	if err := tl.Read(strings.NewReader(hostileExport()), ""); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tl.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	return tl, b.Bytes()
}

// TestPageIsSelfContained: no script, nothing the browser would fetch.
func TestPageIsSelfContained(t *testing.T) {
	_, page := fleetPage(t)
	lower := strings.ToLower(string(page))
	for _, banned := range []string{"<script", "src=", "href=", "url(", "@import", "http:", "https:", "<link", "<iframe", "<object", "<embed", "<img"} {
		if strings.Contains(lower, banned) {
			t.Errorf("the page holds %q", banned)
		}
	}
	if strings.Contains(string(page), testenv.Canary) || strings.Contains(string(page), upperToken) {
		t.Error("the page holds a token from an input row")
	}
}

var barTag = regexp.MustCompile(`<rect class="bar [^"]*"[^>]*>`)
var attr = regexp.MustCompile(`([a-z-]+)="([^"]*)"`)

// TestPageRendersBarsInChromium renders the page in headless Chromium and
// reads the bars back from the DOM the browser built: one per code, each
// with the code's device count, its width in proportion.
func TestPageRendersBarsInChromium(t *testing.T) {
	chromium := testenv.RequireTool(t, "chromium")
	tl, page := fleetPage(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "report.html")
	if err := os.WriteFile(file, page, 0o644); err != nil {
		t.Fatal(err)
	}
	dom := runChromium(t, chromium, dir, "--dump-dom", "file://"+file)
	bars := barTag.FindAll(dom, -1)
	lines := tl.Lines()
	if len(bars) != len(lines) {
		t.Fatalf("%d bars rendered, %d codes", len(bars), len(lines))
	}
	most := lines[0].Count()
	want := map[string]int{}
	for _, l := range lines {
		want[l.Code] = l.Count()
	}
	for _, b := range bars {
		a := map[string]string{}
		for _, m := range attr.FindAllSubmatch(b, -1) {
			a[string(m[1])] = string(m[2])
		}
		count, _ := strconv.Atoi(a["data-count"])
		width, _ := strconv.Atoi(a["width"])
		if n, ok := want[a["data-code"]]; !ok || n != count {
			t.Errorf("bar %s shows %d results, want %d", a["data-code"], count, n)
		}
		if wantWidth := max(1, count*barMaxWidth/most); width != wantWidth {
			t.Errorf("bar %s is %d wide, want %d", a["data-code"], width, wantWidth)
		}
		delete(want, a["data-code"])
	}
	if !bytes.Contains(dom, []byte(`data-uncounted="unreadable rows">`+strconv.Itoa(tl.Unreadable)+"<")) {
		t.Errorf("the rendered page does not show %d unreadable rows", tl.Unreadable)
	}
	png := filepath.Join(dir, "report.png")
	runChromium(t, chromium, dir, "--window-size=1000,1400", "--screenshot="+png, "file://"+file)
	if info, err := os.Stat(png); err != nil || info.Size() < 10_000 {
		t.Fatalf("no screenshot: %v", err)
	}
	if keep := os.Getenv("FLEET_REPORT_SCREENSHOT"); keep != "" {
		data, _ := os.ReadFile(png)
		os.WriteFile(keep, data, 0o644)
	}
}

func runChromium(t *testing.T, chromium, dir string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, append([]string{"--headless", "--no-sandbox", "--disable-gpu",
		"--user-data-dir=" + filepath.Join(dir, "profile")}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
	}
	return out
}
