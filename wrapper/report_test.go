//go:build linux

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// fleetRows is the size of the export the report is measured on.
const fleetRows = 100_000

// TestReportOnAHundredThousandRows runs the release build of `report` on
// a Jamf-shaped export of 100,000 computers (every code of the table,
// success, empty values, a planted token every thousandth row) and checks
// the counts and that its peak RSS stays under a generous bound. The time,
// the peak RSS and the page's size are logged, never asserted.
func TestReportOnAHundredThousandRows(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: writes and reads a 100,000-row export")
	}
	dir := t.TempDir()
	export := filepath.Join(dir, "jamf.csv")
	want := writeFleetExport(t, export)
	page := filepath.Join(dir, "fleet.html")

	cmd := exec.Command(filepath.Join(binDir, "ctrld-install-release"), "report", "--json", "--html", page, export)
	start := time.Now()
	out, err := cmd.Output()
	elapsed := time.Since(start)
	if err != nil {
		t.Fatalf("report: %v", err)
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss / 1024
	info, err := os.Stat(page)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d rows: %v, peak RSS %d MiB, page %d bytes", fleetRows, elapsed.Round(time.Millisecond), rss, info.Size())

	var got struct {
		Codes []struct {
			Code    string `json:"code"`
			Devices int    `json:"devices"`
		} `json:"codes"`
		Unreadable int `json:"unreadable"`
		Empty      int `json:"empty"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	for _, c := range got.Codes {
		if want[c.Code] != c.Devices {
			t.Errorf("%s: %d devices, want %d", c.Code, c.Devices, want[c.Code])
		}
		delete(want, c.Code)
	}
	if got.Unreadable != want["unreadable"] || got.Empty != want["empty"] {
		t.Errorf("unreadable %d empty %d, want %d %d", got.Unreadable, got.Empty, want["unreadable"], want["empty"])
	}
	delete(want, "unreadable")
	delete(want, "empty")
	if len(want) != 0 {
		t.Errorf("codes missing from the report: %v", want)
	}
	for _, f := range testenv.FilesWithCanary(dir, export) {
		t.Errorf("canary token in %s", f)
	}
	const limitMiB = 64
	if rss > limitMiB {
		t.Errorf("peak RSS %d MiB, over %d MiB", rss, limitMiB)
	}
}

// writeFleetExport writes the export and returns the counts it holds.
func writeFleetExport(t *testing.T, path string) map[string]int {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "Computer Name,Serial Number,Operating System Version,Last Check-in,ctrld provisioning")
	want := map[string]int{}
	for i := 0; i < fleetRows; i++ {
		value := ""
		switch {
		case i%1000 == 999:
			value = "provisioning failed: stage=listener code=" + testenv.Canary + " (exit 41)"
			want["unreadable"]++
		case i%100 == 50:
			want["empty"]++
		case i%3 == 0:
			c := codes.Table[i%len(codes.Table)]
			value = codes.Failure(c).Line()
			want[c.Name]++
		default:
			value = codes.Success.Line()
			want["OK"]++
		}
		fmt.Fprintf(w, "MAC-%06d,C02X%06dJGH5,14.5,2026-11-30 09:12:44,%s\n", i, i, value)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return want
}
