package preflight

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ProcHolders finds holders the Linux way: the socket's inode in
// /proc/net/{udp,tcp,udp6,tcp6}, then the process with a descriptor on
// that socket in /proc/<pid>/fd. Root is the /proc to read.
type ProcHolders struct{ Root string }

// tcpListen is the TCP LISTEN state as /proc/net/tcp writes it.
const tcpListen = "0A"

// maxProcNet bounds what is read of one /proc/net table.
const maxProcNet = 16 << 20

// Find is a HolderFinder.
func (p ProcHolders) Find(ctx context.Context, proto string, port int) ([]Holder, error) {
	inodes := map[string]bool{}
	for _, table := range []string{proto, proto + "6"} {
		f, err := os.Open(filepath.Join(p.Root, "net", table))
		if err != nil {
			continue
		}
		socketInodes(io.LimitReader(f, maxProcNet), proto, port, inodes)
		f.Close()
	}
	if len(inodes) == 0 {
		return nil, nil
	}
	return p.owners(ctx, inodes)
}

// socketInodes adds the inodes of the table's sockets bound to port:
// lines "sl local_address rem_address st ... uid timeout inode", the
// address as HEXIP:HEXPORT.
func socketInodes(r io.Reader, proto string, port int, into map[string]bool) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 10 {
			continue
		}
		_, hexPort, ok := strings.Cut(f[1], ":")
		if !ok {
			continue
		}
		p, err := strconv.ParseUint(hexPort, 16, 16)
		if err != nil || int(p) != port || proto == TCP && f[3] != tcpListen || f[9] == "0" {
			continue
		}
		into[f[9]] = true
	}
}

// owners walks /proc/<pid>/fd for descriptors on the sockets.
func (p ProcHolders) owners(ctx context.Context, inodes map[string]bool) ([]Holder, error) {
	entries, err := os.ReadDir(p.Root)
	if err != nil {
		return nil, err
	}
	var found []Holder
	for _, e := range entries {
		if ctx.Err() != nil {
			return found, ctx.Err()
		}
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p.holds(pid, inodes) {
			found = addHolder(found, Holder{PID: pid, Name: p.comm(pid)})
		}
	}
	return found, nil
}

func (p ProcHolders) holds(pid int, inodes map[string]bool) bool {
	dir := filepath.Join(p.Root, strconv.Itoa(pid), "fd")
	fds, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, fd := range fds {
		link, err := os.Readlink(filepath.Join(dir, fd.Name()))
		if err != nil {
			continue
		}
		if inode, ok := strings.CutPrefix(link, "socket:["); ok && inodes[strings.TrimSuffix(inode, "]")] {
			return true
		}
	}
	return false
}

// comm is the process's name: its executable's base name, or else the
// name the kernel keeps (at most 15 bytes).
func (p ProcHolders) comm(pid int) string {
	if exe, err := os.Readlink(filepath.Join(p.Root, strconv.Itoa(pid), "exe")); err == nil {
		return printable(filepath.Base(strings.TrimSuffix(exe, " (deleted)")))
	}
	data, err := os.ReadFile(filepath.Join(p.Root, strconv.Itoa(pid), "comm"))
	if err != nil {
		return ""
	}
	return printable(strings.TrimSpace(string(data)))
}

// printable keeps a process name to printable ASCII: a name is chosen by
// whoever started the process.
func printable(s string) string {
	var b strings.Builder
	for i := 0; i < len(s) && b.Len() < 64; i++ {
		if s[i] >= 0x20 && s[i] < 0x7f {
			b.WriteByte(s[i])
		} else {
			b.WriteByte('?')
		}
	}
	return b.String()
}
