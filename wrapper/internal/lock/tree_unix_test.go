//go:build unix

package lock

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/proc"
)

// nobody is the uid a local attacker's processes run as here.
const nobody = 65534

// fakeCtrld copies sleep to a directory every user can reach: the file
// stands in for the ctrld binary.
func fakeCtrld(t *testing.T) string {
	t.Helper()
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		testenv.Unavailable(t, "no sleep: %v", err)
	}
	data, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.Chmod(filepath.Dir(dir), 0o755)
	os.Chmod(dir, 0o755)
	path := filepath.Join(dir, "ctrld")
	if err := os.WriteFile(path, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// leader starts program in a session and process group of its own, as
// uid when it is not -1, and returns its pid: the group's id.
func leader(t *testing.T, program string, uid int) int {
	t.Helper()
	cmd := exec.Command(program, "60")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if uid >= 0 {
		testenv.RequireRoot(t, "running a process as another user")
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd.Process.Pid
}

// markAs writes the marker MarkTree would write for pid and ctrld, after
// change has altered it.
func markAs(t *testing.T, home string, pid int, ctrld string, change func(*marker)) {
	t.Helper()
	if err := MarkTree(home, pid, ctrld); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(home, TreeFileName))
	m, ok := parseMarker(data)
	if !ok {
		t.Fatalf("MarkTree wrote %q", data)
	}
	change(&m)
	if err := writeMarker(home, m); err != nil {
		t.Fatal(err)
	}
}

func unchanged(*marker) {}

func markerGone(t *testing.T, home string) {
	t.Helper()
	if _, err := os.Lstat(filepath.Join(home, TreeFileName)); !os.IsNotExist(err) {
		t.Fatalf("the marker was kept: %v", err)
	}
}

func TestTreeAliveWhileCtrldsGroupLives(t *testing.T) {
	home, ctrld := t.TempDir(), fakeCtrld(t)
	cmd := exec.Command(ctrld, "60")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if err := MarkTree(home, cmd.Process.Pid, ctrld); err != nil {
		t.Fatal(err)
	}
	if !TreeAlive(home) {
		t.Fatal("ctrld's live group was not seen")
	}
	// Killed and not yet reaped, ctrld is a zombie: that is not alive.
	cmd.Process.Kill()
	waitFacts(t, cmd.Process.Pid, "became a zombie", func(f proc.Facts) bool { return f.Zombie })
	if TreeAlive(home) {
		t.Fatal("a group of a zombie was seen as alive")
	}
	markerGone(t, home)
	cmd.Wait()
}

// waitFacts waits up to 5s for process pid to be as ok wants: a shell's
// background child is a copy of the shell until it execs, and a killed
// child takes a moment to become a zombie.
func waitFacts(t *testing.T, pid int, what string, ok func(proc.Facts) bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if f, err := proc.Lookup(pid); err == nil && ok(f) {
			return
		}
	}
	t.Fatalf("process %d never %s", pid, what)
}

// A local user waits for the id of a tree that is gone and makes a group
// of it: their process runs another program, as another user. Even with
// the right boot and start time in the marker, it does not count.
func TestTreeMarkerNamingAnotherUsersGroupIsDropped(t *testing.T) {
	for name, run := range map[string]struct {
		runsCtrld bool
		uid       int
	}{
		"sleep as nobody":     {false, nobody},
		"sleep as this user":  {false, -1},
		"ctrld run by nobody": {true, nobody},
	} {
		t.Run(name, func(t *testing.T) {
			home, ctrld := t.TempDir(), fakeCtrld(t)
			program, _ := exec.LookPath("sleep")
			if run.runsCtrld {
				program = ctrld
			}
			pid := leader(t, program, run.uid)
			markAs(t, home, pid, ctrld, unchanged)
			if TreeAlive(home) {
				t.Fatal("another user's group counted as ctrld's tree")
			}
			markerGone(t, home)
		})
	}
}

func TestTreeMarkerOfAnotherBootOrLeaderIsDropped(t *testing.T) {
	for name, change := range map[string]func(*marker){
		"another boot":       func(m *marker) { m.boot = "00000000-0000-0000-0000-000000000000" },
		"another start time": func(m *marker) { m.start++ },
		"another binary":     func(m *marker) { m.exe.Ino++ },
	} {
		t.Run(name, func(t *testing.T) {
			home, ctrld := t.TempDir(), fakeCtrld(t)
			markAs(t, home, leader(t, ctrld, -1), ctrld, change)
			if TreeAlive(home) {
				t.Fatal("the marker counted")
			}
			markerGone(t, home)
		})
	}
}

// With the leader gone, a process of its group that runs ctrld still
// counts (a grandchild left by a killed wrapper); one that runs another
// program does not.
func TestTreeAliveWithoutItsLeader(t *testing.T) {
	ctrld := fakeCtrld(t)
	sleep, _ := exec.LookPath("sleep")
	for program, want := range map[string]bool{ctrld: true, sleep: false} {
		home := t.TempDir()
		pidFile := filepath.Join(t.TempDir(), "child")
		sh := exec.Command("/bin/sh", "-c", program+" 60 & echo $! > "+pidFile)
		sh.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := sh.Start(); err != nil {
			t.Fatal(err)
		}
		group := sh.Process.Pid
		markAs(t, home, group, ctrld, unchanged)
		sh.Wait()
		data, _ := os.ReadFile(pidFile)
		child, err := strconv.Atoi(string(data[:len(data)-1]))
		if err != nil {
			t.Fatalf("child pid %q", data)
		}
		exe, _ := proc.FileOf(program)
		waitFacts(t, child, "ran "+program, func(f proc.Facts) bool { return f.Exe == exe })
		if got := TreeAlive(home); got != want {
			t.Errorf("%s left in the group: alive=%v, want %v", program, got, want)
		}
		syscall.Kill(child, syscall.SIGKILL)
	}
}

func TestTreeMarkerThatIsMalformedIsDropped(t *testing.T) {
	ctrld := fakeCtrld(t)
	pid := leader(t, ctrld, -1)
	home := t.TempDir()
	markAs(t, home, pid, ctrld, unchanged)
	good, _ := os.ReadFile(filepath.Join(home, TreeFileName))
	for _, body := range []string{
		"", "garbage", "1", "-5", "99999999999999999999999999", strconv.Itoa(pid), strconv.Itoa(pid) + "\n",
		string(good[:len(good)-1]), " " + string(good), string(good) + "x", "+" + string(good[len("group="):]),
	} {
		os.WriteFile(filepath.Join(home, TreeFileName), []byte(body), 0o600)
		if TreeAlive(home) {
			t.Errorf("marker %q counted as a live tree", body)
		}
		markerGone(t, home)
	}
	os.WriteFile(filepath.Join(home, TreeFileName), good, 0o600)
	if !TreeAlive(home) {
		t.Fatal("the well-formed marker did not count")
	}
}

// A link at the marker's path is never written through nor read through.
func TestTreeMarkerLinkIsNotFollowed(t *testing.T) {
	ctrld := fakeCtrld(t)
	pid := leader(t, ctrld, -1)
	home := t.TempDir()
	canary := filepath.Join(t.TempDir(), "canary")
	os.WriteFile(canary, []byte(testenv.Canary), 0o644)
	path := filepath.Join(home, TreeFileName)

	os.Symlink(canary, path)
	if err := MarkTree(home, pid, ctrld); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(canary); string(data) != testenv.Canary {
		t.Fatalf("the link's target was written: %q", data)
	}
	if info, err := os.Lstat(path); err != nil || !info.Mode().IsRegular() {
		t.Fatalf("the marker is not a regular file: %v %v", info, err)
	}

	// A link to a good marker is not a marker.
	good := filepath.Join(t.TempDir(), "good")
	os.Rename(path, good)
	os.Symlink(good, path)
	if TreeAlive(home) {
		t.Fatal("a marker read through a link counted")
	}
	markerGone(t, home)
	if _, err := os.Stat(good); err != nil {
		t.Fatalf("the link's target was removed: %v", err)
	}
}

// Only the markers this process wrote go when it exits at once, and none
// is written after.
func TestClearOwnTreesLeavesOthersMarkers(t *testing.T) {
	t.Cleanup(func() { marked.Lock(); marked.exiting = false; marked.Unlock() })
	ctrld := fakeCtrld(t)
	pid := leader(t, ctrld, -1)
	mine, theirs := t.TempDir(), t.TempDir()
	if err := MarkTree(mine, pid, ctrld); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(mine, TreeFileName))
	os.WriteFile(filepath.Join(theirs, TreeFileName), data, 0o600)
	ClearOwnTrees()
	markerGone(t, mine)
	if _, err := os.Stat(filepath.Join(theirs, TreeFileName)); err != nil {
		t.Fatalf("another run's marker went: %v", err)
	}
	if err := MarkTree(mine, pid, ctrld); err == nil {
		t.Fatal("a marker was written after ClearOwnTrees")
	}
	markerGone(t, mine)
}
