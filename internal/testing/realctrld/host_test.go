//go:build linux

package realctrld

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The host check must notice a changed, a new and a removed file.
func TestHostSnapshotSeesChanges(t *testing.T) {
	dir := t.TempDir()
	conf, initd := filepath.Join(dir, "resolv.conf"), filepath.Join(dir, "init.d")
	os.WriteFile(conf, []byte("nameserver 10.0.0.1\n"), 0o644)
	os.MkdirAll(initd, 0o755)
	os.WriteFile(filepath.Join(initd, "other"), []byte("x"), 0o755)
	log := filepath.Join(dir, "dpkg.log")
	os.WriteFile(log, []byte("old line\n"), 0o644)
	saved, savedLogs := watched, sharedLogs
	watched, sharedLogs = []string{conf, initd}, []string{log}
	defer func() { watched, sharedLogs = saved, savedLogs }()

	before := snapshotHost()
	appendTo(log, "2026-12-01 status installed ctrld:amd64 1.1.0\n")
	if diffs := before.compare(snapshotHost()); len(diffs) != 0 {
		t.Fatalf("nothing of ours changed, got %v", diffs)
	}
	appendTo(log, "2026-12-01 status installed ctrld:amd64 "+packageVersion+"\n")
	os.WriteFile(conf, []byte("nameserver 127.0.0.1\n"), 0o644)
	os.WriteFile(filepath.Join(initd, "ctrld"), []byte("#!/bin/sh\n"), 0o755)
	os.Remove(filepath.Join(initd, "other"))
	diffs := strings.Join(before.compare(snapshotHost()), "\n")
	for _, want := range []string{log + ": 2026-12-01 status installed", conf, filepath.Join(initd, "ctrld"), filepath.Join(initd, "other") + ": gone"} {
		if !strings.Contains(diffs, want) {
			t.Errorf("missed %s in:\n%s", want, diffs)
		}
	}
}

func appendTo(path, line string) {
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(line)
	f.Close()
}
