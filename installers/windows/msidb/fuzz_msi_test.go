package msidb

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ctrld-install/ctrld-install/installers/windows/cfb"
)

// FuzzMSI reads a whole .msi (compound file, then database), writes the
// database back into a new compound file and reads that: both reads agree.
// The seeds are whole packages, which the fuzzer is slow to minimize: run
// it with -fuzzminimizetime 1x.
func FuzzMSI(f *testing.F) {
	if seed, err := os.ReadFile(filepath.Join(goldenDir, "wixl-1.2.3-x64.msi")); err == nil {
		f.Add(seed)
	}
	f.Add(writeMSI(f, sampleTables(), sampleSummary()))
	f.Fuzz(func(t *testing.T, data []byte) {
		first, err := readMSI(data)
		if err != nil {
			return
		}
		again := writeMSI(t, first.Tables, first.Summary, first.Codepage)
		second, err := readMSI(again)
		if err != nil {
			t.Fatalf("read again: %v", err)
		}
		if !reflect.DeepEqual(first.Tables, second.Tables) || first.Summary != second.Summary || first.Codepage != second.Codepage {
			t.Fatal("reads differ")
		}
	})
}

func readMSI(data []byte) (*Reader, error) {
	c, err := cfb.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	return NewReader(CompoundFile(c))
}

func writeMSI(t testing.TB, tables []Table, s Summary, codepage ...int) []byte {
	t.Helper()
	var out bytes.Buffer
	c := cfb.NewWriter(&out)
	c.SetRootCLSID(InstallerCLSID)
	w := NewWriter(c)
	for _, cp := range codepage {
		if err := w.SetCodepage(cp); err != nil {
			t.Fatal(err)
		}
	}
	for _, tb := range tables {
		if err := w.WriteTable(tb); err != nil {
			t.Fatal(err)
		}
	}
	w.SetSummary(s)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
