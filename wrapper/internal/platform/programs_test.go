package platform

import (
	"io/fs"
	"testing"
	"time"
)

// fileWithMode is a regular file's stat of the given permissions.
type fileWithMode fs.FileMode

func (m fileWithMode) Name() string       { return "ctrld" }
func (m fileWithMode) Size() int64        { return 1 }
func (m fileWithMode) Mode() fs.FileMode  { return fs.FileMode(m) }
func (m fileWithMode) ModTime() time.Time { return time.Time{} }
func (m fileWithMode) IsDir() bool        { return false }
func (m fileWithMode) Sys() any           { return nil }

func TestProgramsOfEachOS(t *testing.T) {
	cases := []struct {
		os                    OS
		file                  string
		runsWithoutExecuteBit bool
	}{
		{Linux{}, "ctrld", false},
		{Darwin{}, "ctrld", false},
		{Windows{}, "ctrld.exe", true},
	}
	for _, c := range cases {
		if got := c.os.ProgramFile("ctrld"); got != c.file {
			t.Errorf("%T: ctrld's file is %q, want %q", c.os, got, c.file)
		}
		if !c.os.Runnable(fileWithMode(0o755)) {
			t.Errorf("%T: a file with its execute bits set does not run", c.os)
		}
		if got := c.os.Runnable(fileWithMode(0o644)); got != c.runsWithoutExecuteBit {
			t.Errorf("%T: a file without execute bits runs: %v, want %v", c.os, got, c.runsWithoutExecuteBit)
		}
		if !c.os.Runnable(fileWithMode(0o100)) {
			t.Errorf("%T: the owner's execute bit alone is not enough", c.os)
		}
	}
}
