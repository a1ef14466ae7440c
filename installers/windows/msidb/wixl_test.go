package msidb

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/installers/windows/cfb"
)

const goldenDir = "../testdata/wixl-golden"

// openMSI reads a whole .msi with this package's reader.
func openMSI(t *testing.T, path string) (*Reader, *cfb.Reader) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := cfb.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(CompoundFile(c))
	if err != nil {
		t.Fatal(err)
	}
	return r, c
}

// idtRows formats rows as msiinfo export prints them, sorted.
func idtRows(tb Table) []string {
	var lines []string
	for _, r := range tb.Rows {
		cells := make([]string, len(r))
		for i, c := range r {
			if c != nil {
				cells[i] = fmt.Sprint(c)
			}
		}
		lines = append(lines, strings.Join(cells, "\t"))
	}
	sort.Strings(lines)
	return lines
}

// The reader agrees with msiinfo on a real msitools file: every table,
// schema and row of the last wixl-built MSI.
func TestReadsTheWixlBuiltMSI(t *testing.T) {
	r, c := openMSI(t, filepath.Join(goldenDir, "wixl-1.2.3-x64.msi"))
	if c.RootCLSID() != InstallerCLSID {
		t.Errorf("root CLSID % x", c.RootCLSID())
	}
	golden, _ := filepath.Glob(filepath.Join(goldenDir, "*.idt"))
	tables := 0
	for _, path := range golden {
		name := strings.TrimSuffix(filepath.Base(path), ".idt")
		if strings.HasPrefix(name, "_") {
			continue
		}
		tables++
		data, _ := os.ReadFile(path)
		lines := strings.Split(strings.TrimRight(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n"), "\n")
		tb := r.Table(name)
		if tb == nil {
			t.Errorf("table %s not read", name)
			continue
		}
		var colNames, types []string
		for _, col := range tb.Columns {
			colNames, types = append(colNames, col.Name), append(types, col.Type)
		}
		if strings.Join(colNames, "\t") != lines[0] || strings.Join(types, "\t") != lines[1] {
			t.Errorf("%s schema %v %v, msiinfo says %q %q", name, colNames, types, lines[0], lines[1])
		}
		want := append([]string(nil), lines[3:]...)
		sort.Strings(want)
		if got := idtRows(*tb); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s rows:\n%s\nmsiinfo:\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	if tables != len(r.Tables) || tables < 20 {
		t.Errorf("%d golden tables, %d read", tables, len(r.Tables))
	}
	if got := r.Streams(); strings.Join(got, ",") != "ctrld.cab" {
		t.Errorf("other streams %q", got)
	}
}

// The summary writer gives msitools' bytes for msitools' values.
func TestSummaryBytesMatchMsitools(t *testing.T) {
	r, c := openMSI(t, filepath.Join(goldenDir, "wixl-1.2.3-x64.msi"))
	f, err := c.Open(SummaryStream)
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := io.ReadAll(f)
	if r.Summary.Template != "x64;1033" || r.Summary.PageCount != 500 || r.Summary.Created.Unix() != 1_700_000_000 {
		t.Errorf("summary read as %+v", r.Summary)
	}
	ours, err := r.Summary.MarshalBinary()
	if err != nil || !bytes.Equal(ours, stored) {
		t.Fatalf("summary:\n% x\nmsitools:\n% x", ours, stored)
	}
}
