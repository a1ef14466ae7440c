package testenv

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
)

// FilesWithCanary lists the regular files under root that hold the canary
// token, leaving out the inputs that hold it on purpose (absolute paths).
func FilesWithCanary(root string, except ...string) []string {
	skip := map[string]bool{}
	for _, e := range except {
		skip[e] = true
	}
	var found []string
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || skip[path] {
			return nil
		}
		if data, err := os.ReadFile(path); err == nil && bytes.Contains(data, []byte(Canary)) {
			found = append(found, path)
		}
		return nil
	})
	return found
}

// ExitCode reads a finished command's error: its exit code, or the error
// when the command could not run at all.
func ExitCode(err error) (int, error) {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), nil
	}
	return 0, err
}
