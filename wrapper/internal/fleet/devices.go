package fleet

import (
	"bytes"
	"hash/maphash"
	"math"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

// deviceColumns are the headers that name a device, best first: Jamf's
// Computer Name and Intune's DeviceName come before the serial and the
// device id, because the same Mac in a Jamf and an Intune export shares
// its name and nothing else.
var deviceColumns = []string{"Computer Name", "DeviceName", "Serial Number", "DeviceId"}

// timeColumns are the headers that date a row's attempt: Intune's
// LastModifiedDateTime and Jamf's Last Check-in.
var timeColumns = []string{"LastModifiedDateTime", "Last Check-in", "Last Inventory Update"}

// timeLayouts are the ways those columns write a time.
var timeLayouts = []string{time.RFC3339, "2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02 15:04"}

// attempt is what one row says of a named device, in few bytes: a
// fleet may have millions. No byte of the row is kept: the device is
// known by a hash of its name, its outcome by its exit (only codes of
// the table are read), its time in seconds, noTime when undated.
type attempt struct {
	exit    uint8
	reading reading
	at      int64
}

const noTime = math.MinInt64

func newAttempt(o codes.Outcome, r reading, at time.Time) attempt {
	a := attempt{exit: uint8(o.Exit()), reading: r, at: noTime}
	if !at.IsZero() {
		a.at = at.Unix()
	}
	return a
}

// outcome is the table's outcome for the attempt's exit.
func (a attempt) outcome() codes.Outcome {
	if a.exit == 0 {
		return codes.Success
	}
	c, _ := codes.ByExit(int(a.exit))
	return codes.Failure(c)
}

// supersedes reports whether a is a later attempt than prev. A row with
// no result never hides one with a result; dated rows go by their dates;
// otherwise the row read later wins.
func (a attempt) supersedes(prev attempt) bool {
	switch {
	case a.reading == readEmpty && prev.reading != readEmpty:
		return false
	case prev.reading == readEmpty && a.reading != readEmpty:
		return true
	case a.at != noTime && prev.at != noTime && a.at != prev.at:
		return a.at > prev.at
	}
	return true
}

// deviceKey is the hash a device is known by, the same for its name in
// any case and in any input.
func (t *Tally) deviceKey(name []byte) uint64 {
	t.lower = append(t.lower[:0], bytes.TrimSpace(name)...)
	for i, c := range t.lower {
		if 'A' <= c && c <= 'Z' {
			t.lower[i] = c + 'a' - 'A'
		}
	}
	return maphash.Bytes(t.seed, t.lower)
}

// addDevice counts a row that names its device: the device counts once,
// by its latest attempt, and each further row of it is folded.
func (t *Tally) addDevice(name []byte, a attempt) {
	key := t.deviceKey(name)
	prev, seen := t.seen[key]
	if !seen {
		t.seen[key] = a
		t.count(a.outcome(), a.reading, true, 1)
		return
	}
	t.Folded++
	if !a.supersedes(prev) {
		return
	}
	t.count(prev.outcome(), prev.reading, true, -1)
	t.count(a.outcome(), a.reading, true, 1)
	t.seen[key] = a
}

// parseTime reads a time column's value; zero when it is not one. The
// layout that read the last value is tried first: an export writes every
// time one way.
func (t *Tally) parseTime(v string) time.Time {
	if v == "" {
		return time.Time{}
	}
	if at, err := time.Parse(timeLayouts[t.layout], v); err == nil {
		return at
	}
	for i, layout := range timeLayouts {
		if at, err := time.Parse(layout, v); err == nil {
			t.layout = i
			return at
		}
	}
	return time.Time{}
}
