package cab

import (
	"fmt"
	"time"
)

// dosEpoch is the earliest time an MS-DOS date holds; a zero Modified
// time is written as this.
var dosEpoch = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// dosDateTime encodes t's wall clock in its own location (pass UTC for a
// pinned, reproducible date) with two-second resolution.
func dosDateTime(t time.Time) (date, clock uint16, err error) {
	if t.IsZero() {
		t = dosEpoch
	}
	if t.Year() < 1980 || t.Year() > 2107 {
		return 0, 0, fmt.Errorf("%w: %v is outside 1980-2107", ErrInvalidTime, t)
	}
	date = uint16((t.Year()-1980)<<9 | int(t.Month())<<5 | t.Day())
	clock = uint16(t.Hour()<<11 | t.Minute()<<5 | t.Second()/2)
	return date, clock, nil
}

// fromDOS decodes a date and time as UTC. Out-of-range fields (month 0,
// day 32, ...) are normalised the way time.Date does.
func fromDOS(date, clock uint16) time.Time {
	return time.Date(int(date>>9)+1980, time.Month(date>>5&0xF), int(date&0x1F),
		int(clock>>11), int(clock>>5&0x3F), int(clock&0x1F)*2, 0, time.UTC)
}
