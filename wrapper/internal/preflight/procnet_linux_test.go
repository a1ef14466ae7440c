package preflight

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A /proc laid out in a temporary folder: two tables and three
// processes, one holding the UDP socket, one the listening TCP socket,
// one a TCP socket on the port that only connects out.
func fakeProc(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	write := func(path, content string) {
		p := filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	header := "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
	write("net/udp", header+
		"  1: 00000000:0035 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 1111 2 0000000000000000 0\n"+
		"  2: 0100007F:1F90 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 9999 2 0000000000000000 0\n")
	write("net/tcp", header+
		"  1: 3500007F:0035 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2222 1 0000000000000000 100 0 0 10 0\n"+
		"  2: 0100007F:0035 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 3333 1 0000000000000000 20 4 30 10 -1\n")
	write("net/tcp6", header)
	for pid, inode := range map[string]string{"100": "1111", "200": "2222", "300": "3333"} {
		write(pid+"/comm", "daemon-"+pid+"\n")
		if err := os.MkdirAll(filepath.Join(root, pid, "fd"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("socket:["+inode+"]", filepath.Join(root, pid, "fd", "3")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("/dev/null", filepath.Join(root, pid, "fd", "0")); err != nil {
			t.Fatal(err)
		}
	}
	write("self/comm", "not a pid\n")
	return root
}

func TestProcHolders(t *testing.T) {
	p := ProcHolders{Root: fakeProc(t)}
	for _, tc := range []struct {
		proto string
		port  int
		want  []Holder
	}{
		{UDP, 53, []Holder{{100, "daemon-100"}}},
		// The TCP socket that only connects out does not hold the port.
		{TCP, 53, []Holder{{200, "daemon-200"}}},
		{UDP, 8080, nil},
		{TCP, 5354, nil},
	} {
		got, err := p.Find(context.Background(), tc.proto, tc.port)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %d: %v, %v; want %v", tc.proto, tc.port, got, err, tc.want)
		}
	}
}

func TestProcHoldersGarbage(t *testing.T) {
	into := map[string]bool{}
	socketInodes(strings.NewReader("garbage\n  1: zz:zz 0 0A a b c d e 77\n  2: 00:0035 0 07 a b c d e 0\n\x00\xff"), UDP, 53, into)
	if len(into) != 0 {
		t.Errorf("garbage gave inodes %v", into)
	}
}

func TestHolderNames(t *testing.T) {
	if got := (Holder{PID: 7, Name: "dnsmasq"}).String(); got != "dnsmasq (pid 7)" {
		t.Errorf("%q", got)
	}
	if got := printable("evil\x1b[31m\nname"); got != "evil?[31m?name" {
		t.Errorf("control characters kept: %q", got)
	}
}
