package release

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestFanOutKeepsOrderAndJoinsErrors(t *testing.T) {
	items := []int{5, 1, 4, 2, 3}
	got, err := fanOut(items, func(n int) (string, error) {
		time.Sleep(time.Duration(n) * time.Millisecond)
		if n%2 == 0 {
			return "", fmt.Errorf("even %d", n)
		}
		return fmt.Sprint(n), nil
	})
	if strings.Join(got, ",") != "5,1,,,3" {
		t.Errorf("results %q", got)
	}
	if err == nil || !strings.Contains(err.Error(), "even 4") || !strings.Contains(err.Error(), "even 2") {
		t.Errorf("errors %v", err)
	}
}

func TestFanOutBoundsParallelism(t *testing.T) {
	var running, peak atomic.Int32
	items := make([]int, 4*maxParallel())
	_, err := fanOut(items, func(int) (int, error) {
		n := running.Add(1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		time.Sleep(5 * time.Millisecond)
		running.Add(-1)
		return 0, nil
	})
	if err != nil || peak.Load() > int32(maxParallel()) || peak.Load() < 2 {
		t.Fatalf("peak %d of %d allowed (%v)", peak.Load(), maxParallel(), err)
	}
}

// Run with -race: parallel jobs print through one progressWriter, and
// every line arrives whole.
func TestProgressLinesStayWhole(t *testing.T) {
	var buf bytes.Buffer
	p := &progressWriter{w: &buf}
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.printf("job %02d %s", i, strings.Repeat("x", 200))
		}()
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 50 {
		t.Fatalf("%d lines", len(lines))
	}
	for _, l := range lines {
		if len(l) != len("job 00 ")+200 {
			t.Errorf("torn line %q", l)
		}
	}
	var nilWriter *progressWriter
	nilWriter.printf("no writer, no output")
	if _, err := fanOut([]int{}, func(int) (int, error) { return 0, errors.New("never") }); err != nil {
		t.Error(err)
	}
}
