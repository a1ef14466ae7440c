package fleet

import (
	"os"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// counts is a tally as a test states it: devices per code (OK for
// success), and the rows that are not devices with a result.
type counts struct {
	codes                                     map[string]int
	unreadable, empty, otherCodes, otherLines int
}

func tallyOf(t *testing.T, inputs map[string]string, column string) *Tally {
	t.Helper()
	tl := NewTally()
	for _, text := range inputs {
		if err := tl.Read(strings.NewReader(text), column); err != nil {
			t.Fatal(err)
		}
	}
	return tl
}

// readFixtures reads fixtures from testdata/fleet into one tally.
func readFixtures(t *testing.T, column string, names ...string) *Tally {
	t.Helper()
	tl := NewTally()
	for _, name := range names {
		f, err := os.Open(testenv.Fixture(t, "fleet/"+name))
		if err != nil {
			t.Fatal(err)
		}
		err = tl.Read(f, column)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return tl
}

func readFixture(t *testing.T, name, column string) *Tally {
	t.Helper()
	return readFixtures(t, column, name)
}

func check(t *testing.T, tl *Tally, want counts) {
	t.Helper()
	got := map[string]int{}
	for _, l := range tl.Lines() {
		got[l.Code] = l.Count()
	}
	if len(got) != len(want.codes) {
		t.Errorf("codes %v, want %v", got, want.codes)
	}
	for code, n := range want.codes {
		if got[code] != n {
			t.Errorf("%s: %d devices, want %d (all: %v)", code, got[code], n, got)
		}
	}
	if tl.Unreadable != want.unreadable || tl.Empty != want.empty || tl.OtherCodes != want.otherCodes || tl.OtherLines != want.otherLines {
		t.Errorf("unreadable %d empty %d other codes %d other lines %d, want %d %d %d %d",
			tl.Unreadable, tl.Empty, tl.OtherCodes, tl.OtherLines, want.unreadable, want.empty, want.otherCodes, want.otherLines)
	}
}

func TestJamfExport(t *testing.T) {
	tl := readFixture(t, "jamf-advanced-search.csv", "")
	check(t, tl, counts{codes: map[string]int{"OK": 4, "LISTENER_BIND_FAILED": 2, "API_UNREACHABLE": 1, "PROFILE_PREFS_MISSING": 1, "TOKEN_EXPIRED": 1}, unreadable: 1, empty: 1})
	if in := tl.Inputs[0]; in.Format != FormatCSV || in.Column != 5 || in.ColumnName != "" {
		t.Errorf("read as %+v, want CSV column 5 with no name echoed", in)
	}
	// Asking for the column by name gives the same answer.
	named := readFixture(t, "jamf-advanced-search.csv", "ctrld provisioning")
	if named.Inputs[0].Column != 5 || len(named.Lines()) != len(tl.Lines()) || named.Unreadable != 1 {
		t.Errorf("--column: %+v %+v", named.Inputs[0], named.Lines())
	}
}

func TestJamfTabDelimitedExport(t *testing.T) {
	tl := readFixture(t, "jamf-advanced-search.tsv", "")
	check(t, tl, counts{codes: map[string]int{"OK": 2, "INSTALL_IN_PROGRESS": 1}})
	if tl.Inputs[0].Column != 3 {
		t.Errorf("column %d, want 3", tl.Inputs[0].Column)
	}
}

func TestIntuneExport(t *testing.T) {
	want := counts{codes: map[string]int{"OK": 2, "LISTENER_BIND_FAILED": 2, "API_UNREACHABLE": 1, "INSTALL_IN_PROGRESS": 1}, otherCodes: 2}
	tl := readFixture(t, "intune-device-install-status.csv", "")
	check(t, tl, want)
	if in := tl.Inputs[0]; in.Column != 11 || in.ColumnName != "ErrorCode" {
		t.Errorf("read as %+v, want column 11 ErrorCode", in)
	}
	hex := readFixture(t, "intune-device-install-status.csv", "hexerrorcode")
	check(t, hex, want)
	if hex.Inputs[0].Column != 12 {
		t.Errorf("HexErrorCode read as column %d", hex.Inputs[0].Column)
	}
}

func TestInstallLogAndLines(t *testing.T) {
	check(t, readFixture(t, "install.log", ""), counts{codes: map[string]int{"OK": 1, "LISTENER_BIND_FAILED": 1, "SERVICE_START_FAILED": 1}, unreadable: 1, otherLines: 2})
	check(t, readFixture(t, "last-lines.txt", ""), counts{codes: map[string]int{"OK": 3, "API_UNREACHABLE": 1, "CTRLD_TIMEOUT": 1}, otherLines: 1})
}

func TestInputsAddUp(t *testing.T) {
	tl := readFixtures(t, "", "jamf-advanced-search.csv", "jamf-advanced-search.tsv", "last-lines.txt")
	if got := tl.Lines()[0]; got.Code != "OK" || got.Count() != 9 {
		t.Errorf("first line %+v, want OK with 9 devices", got)
	}
	if len(tl.Inputs) != 3 {
		t.Errorf("%d inputs", len(tl.Inputs))
	}
}

func TestColumnAskedForMustExist(t *testing.T) {
	tl := NewTally()
	if err := tl.Read(strings.NewReader("a,b\n1,2\n"), "nope"); err == nil {
		t.Fatal("a missing column was accepted")
	}
}

func TestSortedByDevices(t *testing.T) {
	tl := tallyOf(t, map[string]string{"l": strings.Repeat("provisioning failed: stage=bootstrap code=API_UNREACHABLE (exit 30)\n", 3) +
		strings.Repeat("provisioning complete (exit 0)\n", 5) +
		"provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)\n" +
		"provisioning failed: stage=input code=PROVISION_TOKEN_MALFORMED (exit 21)\n"}, "")
	var order []string
	for _, l := range tl.Lines() {
		order = append(order, l.Code)
	}
	if got := strings.Join(order, " "); got != "OK API_UNREACHABLE PROVISION_TOKEN_MALFORMED LISTENER_BIND_FAILED" {
		t.Errorf("order %s", got)
	}
}
