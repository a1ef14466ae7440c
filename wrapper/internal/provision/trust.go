package provision

import (
	"errors"
	"fmt"
	"os"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// ErrNotExecutable means there is no ctrld to run at the path.
var ErrNotExecutable = errors.New("ctrld is missing or not executable")

// CtrldUsable returns the path to run ctrld by when start would run the
// ctrld at path: it is an executable regular file that no user but root
// can replace. The path returned is the one that was checked (its folder
// resolved, see safefile.CheckReplaceable). An error that wraps
// ErrNotExecutable says which of those it is not.
func CtrldUsable(osys platform.OS, path string) (string, error) {
	if err := executable(osys, path); err != nil {
		return "", fmt.Errorf("%w: %w", ErrNotExecutable, err)
	}
	return safefile.Replaceable(path)
}

// Why a path is no ctrld to run.
var (
	errNoPath     = errors.New("no path given")
	errNotRegular = errors.New("not a regular file")
	errNoExecBit  = errors.New("no execute permission")
)

func executable(osys platform.OS, path string) error {
	if path == "" {
		return errNoPath
	}
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return err
	case !info.Mode().IsRegular():
		return errNotRegular
	case !osys.Runnable(info):
		return errNoExecBit
	}
	return nil
}
