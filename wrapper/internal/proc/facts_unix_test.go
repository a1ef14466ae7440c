//go:build linux || darwin

package proc

import (
	"os"
	"syscall"
	"testing"
)

func TestLookupSeesThisProcess(t *testing.T) {
	self, err := Lookup(os.Getpid())
	if err != nil || self.UID != uint32(os.Getuid()) || self.Start == 0 || self.Zombie || self.Group != syscall.Getpgrp() {
		t.Fatalf("%+v %v", self, err)
	}
	exe, _ := os.Executable()
	if want, _ := FileOf(exe); self.Exe != want || want.Ino == 0 {
		t.Fatalf("exe %+v, want %+v", self.Exe, want)
	}
	if boot, err := Boot(); err != nil || boot == "" {
		t.Fatalf("boot %q: %v", boot, err)
	}
}

func TestLookupOfNoProcessFails(t *testing.T) {
	// Beyond the largest pid either system hands out.
	if f, err := Lookup(1 << 30); err == nil {
		t.Fatalf("found %+v", f)
	}
}
