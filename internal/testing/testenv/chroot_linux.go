package testenv

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// NewChroot makes a throwaway root holding busybox as /bin/sh with the
// given applets, /dev/null and the named empty folders, for running
// package scripts as a package manager or Installer would. It needs root.
func NewChroot(t testing.TB, dirs []string, applets ...string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		Unavailable(t, "a chroot needs root")
	}
	busybox := RequireTool(t, "busybox")
	root := t.TempDir()
	for _, d := range append([]string{"bin", "dev", "tmp"}, dirs...) {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(busybox)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "bin", "busybox"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, applet := range append([]string{"sh"}, applets...) {
		os.Symlink("busybox", filepath.Join(root, "bin", applet))
	}
	null := filepath.Join(root, "dev", "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Fatal(err)
	}
	os.Chmod(null, 0o666)
	return root
}
