package proc

import "os"

// stdio holds the files of one run: the null device for stdin and for
// every stream without a writer, and a pipe for every stream with one.
type stdio struct {
	null       *os.File
	outR, outW *os.File
	errR, errW *os.File
}

func openStdio(spec Spec) (*stdio, error) {
	// Read and write: the same handle serves as stdin and as an output.
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	s := &stdio{null: null}
	if spec.Stdout != nil {
		if s.outR, s.outW, err = os.Pipe(); err != nil {
			s.closeAll()
			return nil, err
		}
	}
	if spec.Stderr != nil {
		if s.errR, s.errW, err = os.Pipe(); err != nil {
			s.closeAll()
			return nil, err
		}
	}
	return s, nil
}

// child is what the process gets as stdin, stdout and stderr.
func (s *stdio) child() [3]*os.File {
	return [3]*os.File{s.null, orNull(s.outW, s.null), orNull(s.errW, s.null)}
}

func orNull(f, null *os.File) *os.File {
	if f == nil {
		return null
	}
	return f
}

// closeChildEnds closes what only the child needs, once it has it, so
// the pipes reach end of file when the child's tree lets go of them.
func (s *stdio) closeChildEnds() {
	closeFiles(s.outW, s.errW)
	s.outW, s.errW = nil, nil
}

func (s *stdio) closeAll() {
	closeFiles(s.null, s.outR, s.outW, s.errR, s.errW)
}

func closeFiles(files ...*os.File) {
	for _, f := range files {
		if f != nil {
			f.Close()
		}
	}
}
