package testenv

import (
	"encoding/hex"
	"runtime"
	"strings"
	"testing"
)

// Unhex reads a hex dump as the project's format specs print it: groups of
// hex digits, an optional "offset:" prefix and a trailing comment per line.
func Unhex(t testing.TB, dump string) []byte {
	t.Helper()
	var digits strings.Builder
	for _, line := range strings.Split(dump, "\n") {
		if i := strings.Index(line, ":"); i >= 0 {
			line = line[i+1:]
		}
		for _, field := range strings.Fields(line) {
			if _, err := hex.DecodeString(field); err != nil || len(field)%2 != 0 {
				break
			}
			digits.WriteString(field)
		}
	}
	b, err := hex.DecodeString(digits.String())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Allocated is how many bytes f allocates on the heap.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
