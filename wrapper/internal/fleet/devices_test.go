package fleet

import (
	"bytes"
	"strings"
	"testing"
)

func readAll(t *testing.T, inputs ...string) *Tally {
	t.Helper()
	tl := NewTally()
	for _, in := range inputs {
		if err := tl.Read(strings.NewReader(in), ""); err != nil {
			t.Fatal(err)
		}
	}
	return tl
}

const (
	bindFailed  = "provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)"
	unreachable = "provisioning failed: stage=bootstrap code=API_UNREACHABLE (exit 30)"
	complete    = "provisioning complete (exit 0)"
)

// The same Mac in a Jamf and an Intune export, and twice in the Jamf
// one, is one device, counted by its latest attempt by date.
func TestADeviceCountsOnceByItsLatestAttempt(t *testing.T) {
	jamf := "Computer Name,Serial Number,Last Check-in,ctrld provisioning\n" +
		"MAC-01,C01,2026-11-30 09:00:00," + bindFailed + "\n" +
		"MAC-02,C02,2026-11-30 09:00:00," + unreachable + "\n" +
		"MAC-02,C02,2026-11-30 08:00:00," + bindFailed + "\n" +
		"MAC-03,C03,2026-11-30 08:00:00," + bindFailed + "\n" +
		"MAC-03,C03,2026-11-30 09:00:00,\n"
	intune := "DeviceName,DeviceId,LastModifiedDateTime,ErrorCode\n" +
		"mac-01,id-1,2026-11-30T10:00:00Z,0\n" +
		"DESKTOP-1,id-2,2026-11-30T10:00:00Z,41\n"
	tl := readAll(t, jamf, intune)
	check(t, tl, counts{codes: map[string]int{"OK": 1, "API_UNREACHABLE": 1, "LISTENER_BIND_FAILED": 2}})
	if tl.Devices() != 4 || tl.Attempts() != 0 || tl.Folded != 3 {
		t.Errorf("%d devices, %d attempts, %d folded; want 4, 0, 3", tl.Devices(), tl.Attempts(), tl.Folded)
	}
	if in := tl.Inputs[1]; in.DeviceColumn != "DeviceName" || in.TimeColumn != "LastModifiedDateTime" {
		t.Errorf("Intune export read as %+v", in)
	}
	var b bytes.Buffer
	tl.WriteText(&b)
	if !strings.Contains(b.String(), "4 devices with a result (each counted once, by its latest attempt; 3 rows folded)") {
		t.Errorf("text report:\n%s", b.String())
	}
}

// Undated rows of one device: the row read last is its latest attempt.
func TestUndatedRowsGoByOrder(t *testing.T) {
	tl := readAll(t, "Computer Name,ctrld provisioning\nMAC-01,"+bindFailed+"\nMAC-01,"+complete+"\n")
	check(t, tl, counts{codes: map[string]int{"OK": 1}})
}

// A log names no device: each result is an attempt, and the report says
// attempts, not devices.
func TestLinesCountAttempts(t *testing.T) {
	tl := readAll(t, strings.Repeat(bindFailed+"\n", 3), "Serial,ctrld provisioning\nC01,"+complete+"\nC01,"+complete+"\n")
	if tl.Devices() != 0 || tl.Attempts() != 5 || tl.Folded != 0 {
		t.Errorf("%d devices, %d attempts, %d folded; want 0, 5, 0", tl.Devices(), tl.Attempts(), tl.Folded)
	}
	var b bytes.Buffer
	tl.WriteText(&b)
	out := b.String()
	if !strings.Contains(out, "5 attempts with a result from inputs that name no device") || strings.Contains(out, "DEVICES") || !strings.Contains(out, "ATTEMPTS") {
		t.Errorf("text report:\n%s", out)
	}
	b.Reset()
	tl.WriteJSON(&b)
	if !strings.Contains(b.String(), `"attempts": 5,`) || !strings.Contains(b.String(), `"devices": 0,`) {
		t.Errorf("JSON report:\n%s", b.String())
	}
}
