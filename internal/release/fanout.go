package release

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
)

// fanOut runs fn on every item, at most maxParallel at a time, and returns
// the results in the items' order with every error joined.
func fanOut[T, R any](items []T, fn func(T) (R, error)) ([]R, error) {
	results := make([]R, len(items))
	errs := make([]error, len(items))
	slots := make(chan struct{}, maxParallel())
	var wg sync.WaitGroup
	for i, item := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			results[i], errs[i] = fn(item)
		}()
	}
	wg.Wait()
	return results, errors.Join(errs...)
}

// maxParallel bounds the jobs in flight: each go build or compressor is
// already parallel, so more than the cores only adds memory.
func maxParallel() int { return max(2, runtime.NumCPU()) }

// progressWriter lets parallel jobs print whole lines to one writer.
type progressWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (p *progressWriter) printf(format string, args ...any) {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, format+"\n", args...)
}
