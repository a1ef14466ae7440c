package cab

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
)

// maxWidth caps how many blocks are compressed at once (each compressor
// holds about 1 MB).
const maxWidth = 8

// spool compresses 32 KiB blocks, several at a time on as many cores,
// and appends them in order as CFDATA to a temporary file. Blocks are
// compressed independently of each other, so the output does not depend
// on the number of cores.
type spool struct {
	file    *os.File
	out     *bufio.Writer
	size    int64 // CFDATA bytes spooled
	blocks  int
	pending [][]byte // full blocks waiting for compression
	free    [][]byte
	comps   []*compressor
}

func newSpool() (*spool, error) {
	f, err := os.CreateTemp("", "cab-spool-*")
	if err != nil {
		return nil, err
	}
	width := min(runtime.GOMAXPROCS(0), maxWidth)
	s := &spool{file: f, out: bufio.NewWriterSize(f, 64<<10), comps: make([]*compressor, width)}
	for i := range s.comps {
		s.comps[i] = newCompressor()
	}
	return s, nil
}

// add queues a block (taking the slice) and returns an empty buffer for
// the next one.
func (s *spool) add(block []byte) ([]byte, error) {
	if s.blocks+len(s.pending) == maxCount {
		return nil, fmt.Errorf("%w: more than %d blocks", ErrTooLarge, maxCount)
	}
	s.pending = append(s.pending, block)
	if len(s.pending) == len(s.comps) {
		if err := s.compressPending(); err != nil {
			return nil, err
		}
	}
	if n := len(s.free); n > 0 {
		next := s.free[n-1][:0]
		s.free = s.free[:n-1]
		return next, nil
	}
	return make([]byte, 0, blockSize), nil
}

func (s *spool) compressPending() error {
	payloads := make([][]byte, len(s.pending))
	errs := make([]error, len(s.pending))
	var wg sync.WaitGroup
	for i, block := range s.pending {
		wg.Go(func() { payloads[i], errs[i] = s.comps[i].compress(block) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for i, block := range s.pending {
		if err := s.writeBlock(payloads[i], len(block)); err != nil {
			return err
		}
		s.free = append(s.free, block)
	}
	s.pending = s.pending[:0]
	return nil
}

func (s *spool) writeBlock(payload []byte, uncompressed int) error {
	var head [dataHeader]byte
	cb, ub := uint16(len(payload)), uint16(uncompressed)
	binary.LittleEndian.PutUint32(head[0:], blockChecksum(payload, cb, ub))
	binary.LittleEndian.PutUint16(head[4:], cb)
	binary.LittleEndian.PutUint16(head[6:], ub)
	s.out.Write(head[:])
	if _, err := s.out.Write(payload); err != nil {
		return err
	}
	s.size += dataHeader + int64(len(payload))
	s.blocks++
	return nil
}

// finish compresses what is queued and flushes the file.
func (s *spool) finish() error {
	if err := s.compressPending(); err != nil {
		return err
	}
	return s.out.Flush()
}

func (s *spool) copyTo(w io.Writer) error {
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return err
	}
	n, err := io.Copy(w, s.file)
	if err == nil && n != s.size {
		err = fmt.Errorf("cab: spool gave %d of %d bytes", n, s.size)
	}
	return err
}

func (s *spool) remove() error {
	return errors.Join(s.file.Close(), os.Remove(s.file.Name()))
}
