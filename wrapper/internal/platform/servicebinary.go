package platform

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// maxServiceFile caps what is read of a unit file or init script.
const maxServiceFile = 64 << 10

// ownService reports whether a Linux service definition at one of the
// paths is ctrld's service for the binary ctrld. A definition that names
// another binary to run (ctrld installed by hand from another folder, as
// ctrld's own instructions do it) is not ours: the install then provisions
// afresh, and ctrld's start replaces that service with one on the
// packaged binary. A definition that names no binary, or cannot be read,
// counts as ours, as it always did.
func ownService(paths []string, ctrld string) bool {
	for _, p := range paths {
		data, err := safefile.Read(p, safefile.Options{MaxSize: maxServiceFile})
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return true
		}
		runs, named := serviceBinary(data)
		if !named || sameBinary(runs, ctrld) {
			return true
		}
	}
	return false
}

// serviceBinary finds the program a systemd unit (ExecStart=) or ctrld's
// sysv script (cmd=) runs: the first word, without quotes and without
// systemd's prefixes (-, @, +, !, :).
func serviceBinary(data []byte) (string, bool) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		for _, key := range []string{"ExecStart=", "cmd="} {
			rest, ok := strings.CutPrefix(line, key)
			if !ok {
				continue
			}
			rest = strings.TrimLeft(rest, `-@+!:"' `)
			word, _, _ := strings.Cut(rest, " ")
			word = strings.TrimRight(word, `"'`)
			if filepath.IsAbs(word) {
				return filepath.Clean(word), true
			}
		}
	}
	return "", false
}

// sameBinary: the same path, or the same file under another path.
func sameBinary(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}
