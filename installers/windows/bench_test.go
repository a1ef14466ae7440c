//go:build linux

package windows

import (
	"io"
	"runtime"
	"sync"
	"testing"
	"time"
)

// BenchmarkBuild builds the x64 MSI around small and around two 25 MB
// incompressible binaries, and reports the peak heap: it stays flat in
// the payload size (the cabinet goes through a temporary file). The ratio
// against the old wixl build is in the change's notes; wixl is gone.
func BenchmarkBuild(b *testing.B) {
	for _, c := range []struct {
		name string
		size int
	}{{"small", 1 << 20}, {"2x25MB", 25 << 20}} {
		b.Run(c.name, func(b *testing.B) {
			ctrld, wrapper := randomExes(b, c.size)
			p := pkg(ArchX64, ctrld, wrapper)
			runtime.GC() // the inputs' buffers are not the build's
			peak := sampleHeap()
			b.ResetTimer()
			for range b.N {
				if _, err := p.Build(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(peak())/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(2*c.size)/(1<<20), "payload-MiB")
		})
	}
}

// sampleHeap samples the heap in use until the returned function is
// called, which returns the largest value seen.
func sampleHeap() func() uint64 {
	var mu sync.Mutex
	var max uint64
	done := make(chan struct{})
	go func() {
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			mu.Lock()
			max = maxOf(max, m.HeapInuse)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return func() uint64 {
		close(done)
		mu.Lock()
		defer mu.Unlock()
		return max
	}
}

func maxOf(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}
