package fleet

import (
	"bytes"
	"hash/maphash"
	"time"

	"github.com/ctrld-install/ctrld-install/wrapper/codes"
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

// attempt is what one row says of a named device. No byte of the row is
// kept: the device is known by a hash of its name.
type attempt struct {
	outcome codes.Outcome
	reading reading
	at      time.Time
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
	case !a.at.IsZero() && !prev.at.IsZero() && !a.at.Equal(prev.at):
		return a.at.After(prev.at)
	}
	return true
}

// deviceKey is the hash a device is known by, the same for its name in
// any case and in any input.
func (t *Tally) deviceKey(name []byte) uint64 {
	return maphash.Bytes(t.seed, bytes.ToLower(bytes.TrimSpace(name)))
}

// addDevice counts a row that names its device: the device counts once,
// by its latest attempt, and each further row of it is folded.
func (t *Tally) addDevice(name []byte, a attempt) {
	key := t.deviceKey(name)
	prev, seen := t.seen[key]
	if !seen {
		t.seen[key] = a
		t.count(a.outcome, a.reading, true, 1)
		return
	}
	t.Folded++
	if !a.supersedes(prev) {
		return
	}
	t.count(prev.outcome, prev.reading, true, -1)
	t.count(a.outcome, a.reading, true, 1)
	t.seen[key] = a
}

// parseTime reads a time column's value; zero when it is not one.
func parseTime(v string) time.Time {
	for _, layout := range timeLayouts {
		if at, err := time.Parse(layout, v); err == nil {
			return at
		}
	}
	return time.Time{}
}
