package fleet

import (
	"bytes"
	"encoding/json"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// A token an attacker (or a careless export) could put where a code
// name goes: upper case, so it passes the code grammar.
const upperToken = "ZQXSECRETPROVISIONTOKEN"

// hostileExport is a Jamf-shaped CSV with a canary token in every place
// a row can hold one, broken rows of every kind, and valid rows between
// them that must still be counted.
func hostileExport() string {
	ok := "provisioning complete (exit 0)"
	bind := "provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)"
	var b strings.Builder
	b.WriteString("Computer Name,Serial Number,ctrld provisioning\n")
	rows := []string{
		"mac-1,S1," + ok,
		// The token where the code goes, lower and upper case.
		"mac-2,S2,provisioning failed: stage=listener code=" + testenv.Canary + " (exit 41)",
		"mac-3,S3,provisioning failed: stage=listener code=" + upperToken + " (exit 41)",
		// The token around a valid line and in every other column.
		testenv.Canary + "," + testenv.Canary + "," + testenv.Canary + " " + bind + " " + testenv.Canary,
		// A field far over the bound.
		"mac-5,S5," + strings.Repeat("A", 3*MaxRecordBytes) + bind,
		// A million columns.
		strings.Repeat(",", 1_000_000),
		// Binary, no quote and no newline in it.
		"mac-7,S7," + binary(),
		// A stray quote that never closes on its line.
		`mac-8,"S8,` + ok,
		"mac-9,S9," + ok,
		// A line with the wrong exit for its code, and an altered one.
		"mac-10,S10,provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 42)",
		"mac-11,S11,provisioning failed: stage=package code=CTRLD_TIMEOUT (exit 64)",
		"mac-12,S12," + bind,
	}
	for _, r := range rows {
		b.WriteString(r + "\n")
	}
	return b.String()
}

func binary() string {
	var b []byte
	for c := 0; c < 256; c++ {
		if c != '\n' && c != '"' && c != ',' {
			b = append(b, byte(c))
		}
	}
	return string(b) + "\xff\xfe\x00"
}

func TestHostileRowsAreCountedNeverEchoed(t *testing.T) {
	tl := tallyOf(t, map[string]string{"hostile.csv": hostileExport()}, "")
	// mac-2, mac-3, the huge field, the million columns, the binary row,
	// the stray quote, mac-10, mac-11: eight unreadable; every valid row
	// after them still counts.
	check(t, tl, counts{codes: map[string]int{"OK": 2, "LISTENER_BIND_FAILED": 2}, unreadable: 8})
	for name, out := range outputs(t, tl) {
		for _, secret := range []string{testenv.Canary, upperToken, "mac-", "S1"} {
			if strings.Contains(out, secret) {
				t.Errorf("%s output holds %q from an input row", name, secret)
			}
		}
	}
}

// outputs renders a tally every way the command can.
func outputs(t *testing.T, tl *Tally) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, write := range map[string]func(io.Writer) error{"text": tl.WriteText, "json": tl.WriteJSON, "html": tl.WriteHTML} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		out[name] = b.String()
	}
	return out
}

func TestTokenAsAHeaderIsNotEchoed(t *testing.T) {
	export := "Computer," + testenv.Canary + "\nmac-1,provisioning complete (exit 0)\n"
	tl := tallyOf(t, map[string]string{"h.csv": export}, "")
	check(t, tl, counts{codes: map[string]int{"OK": 1}})
	for name, out := range outputs(t, tl) {
		if strings.Contains(out, testenv.Canary) {
			t.Errorf("%s output holds the header's token", name)
		}
	}
}

func TestLinesOverTheBound(t *testing.T) {
	log := "provisioning complete (exit 0)\n" + strings.Repeat("x", 10*MaxRecordBytes) + "\nprovisioning complete (exit 0)\n"
	check(t, tallyOf(t, map[string]string{"l": log}, ""), counts{codes: map[string]int{"OK": 2}, unreadable: 1})
}

func TestQuotedFieldOverLines(t *testing.T) {
	export := "Computer,Notes,ctrld provisioning\nmac-1,\"two\nlines\",provisioning complete (exit 0)\nmac-2,,provisioning complete (exit 0)\n"
	check(t, tallyOf(t, map[string]string{"q.csv": export}, ""), counts{codes: map[string]int{"OK": 2}})
}

// endless streams an export of rows rows, with a field of fieldSize
// bytes in each, without holding it.
type endless struct {
	rows, fieldSize int
	row             []byte
	pos             int
}

func (e *endless) Read(p []byte) (int, error) {
	if e.row == nil {
		e.row = []byte("mac,S," + strings.Repeat("y", e.fieldSize) + " provisioning complete (exit 0)\n")
	}
	n := 0
	for n < len(p) {
		if e.rows == 0 {
			if n == 0 {
				return 0, io.EOF
			}
			break
		}
		c := copy(p[n:], e.row[e.pos:])
		n += c
		e.pos += c
		if e.pos == len(e.row) {
			e.pos = 0
			e.rows--
		}
	}
	return n, nil
}

// TestMemoryStaysBounded streams 512 MiB of rows with 1 MiB fields: the
// heap never holds more than a few records.
func TestMemoryStaysBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: streams 512 MiB")
	}
	tl := NewTally()
	input := io.MultiReader(strings.NewReader("Computer,Serial,ctrld provisioning\n"), &endless{rows: 512, fieldSize: 1 << 20})
	done := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		var most uint64
		var m runtime.MemStats
		for {
			select {
			case <-done:
				peak <- most
				return
			default:
			}
			runtime.ReadMemStats(&m)
			most = max(most, m.HeapInuse)
			time.Sleep(time.Millisecond)
		}
	}()
	if err := tl.Read(input, ""); err != nil {
		t.Fatal(err)
	}
	close(done)
	most := <-peak
	const limit = 32 << 20
	if most > limit {
		t.Errorf("heap in use reached %d MiB, over %d MiB", most>>20, limit>>20)
	}
	if tl.Unreadable != 512 {
		t.Errorf("%d unreadable, want every over-long row counted", tl.Unreadable)
	}
	t.Logf("peak heap in use %d MiB over 512 MiB of input", most>>20)
}

func TestJSONShape(t *testing.T) {
	tl := readFixture(t, "intune-device-install-status.csv", "")
	var b bytes.Buffer
	if err := tl.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Codes []struct {
			Code    string `json:"code"`
			Stage   string `json:"stage"`
			Exit    *int   `json:"exit"`
			Devices int    `json:"devices"`
			Class   string `json:"class"`
		} `json:"codes"`
		Unreadable *int `json:"unreadable"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Unreadable == nil || len(got.Codes) != 4 {
		t.Fatalf("%s", b.String())
	}
	seen := map[string]string{}
	for _, c := range got.Codes {
		if c.Exit == nil {
			t.Fatalf("%s: no exit", c.Code)
		}
		seen[c.Code] = c.Stage + " " + c.Class
		if c.Code == SuccessCode && *c.Exit != 0 {
			t.Errorf("OK with exit %d", *c.Exit)
		}
	}
	if seen["API_UNREACHABLE"] != "bootstrap transient" || seen["LISTENER_BIND_FAILED"] != "listener terminal" {
		t.Errorf("%v", seen)
	}
}

func TestEmptyInput(t *testing.T) {
	tl := tallyOf(t, map[string]string{"e": ""}, "")
	var b bytes.Buffer
	tl.WriteJSON(&b)
	if !strings.Contains(b.String(), `"codes": []`) || !strings.Contains(b.String(), `"unreadable": 0`) {
		t.Errorf("%s", b.String())
	}
}
