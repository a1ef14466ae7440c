package preflight

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// LsofHolders finds holders the macOS way, with lsof's field output
// (-F pc: lines "p<pid>" and "c<command>"). Path is lsof, by its full
// path.
type LsofHolders struct{ Path string }

// maxLsofOutput bounds what is read of lsof's output.
const maxLsofOutput = 1 << 20

// lsofEnv is all of lsof's environment: it needs none of the wrapper's,
// which may hold the token.
var lsofEnv = []string{"PATH=/usr/bin:/bin:/usr/sbin:/sbin", "LC_ALL=C"}

// Find is a HolderFinder.
func (l LsofHolders) Find(ctx context.Context, proto string, port int) ([]Holder, error) {
	args := []string{"-nP", "-F", "pc", "-i" + strings.ToUpper(proto) + ":" + strconv.Itoa(port)}
	if proto == TCP {
		args = append(args, "-sTCP:LISTEN")
	}
	cmd := exec.CommandContext(ctx, l.Path, args...)
	cmd.Env = lsofEnv
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	found := parseLsof(io.LimitReader(out, maxLsofOutput))
	io.Copy(io.Discard, out)
	// lsof exits 1 when nothing matched: not an error here.
	cmd.Wait()
	return found, nil
}

// parseLsof reads lsof's -F pc output: a "p" line starts a process, the
// "c" line after it names it.
func parseLsof(r io.Reader) []Holder {
	var found []Holder
	cur := Holder{PID: -1}
	flush := func() {
		if cur.PID > 0 {
			found = addHolder(found, cur)
		}
	}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "p"):
			flush()
			pid, err := strconv.Atoi(line[1:])
			if err != nil {
				pid = -1
			}
			cur = Holder{PID: pid}
		case strings.HasPrefix(line, "c"):
			cur.Name = printable(line[1:])
		}
	}
	flush()
	return found
}
