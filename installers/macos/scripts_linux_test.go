package macos

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

func TestScriptsPassShellcheck(t *testing.T) {
	testenv.ShellCheck(t, "postinstall", postinstall)
	ea, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "installers", "macos", "mdm", "jamf-extension-attribute.sh"))
	if err != nil {
		t.Fatal(err)
	}
	testenv.ShellCheck(t, "jamf-extension-attribute.sh", ea)
	pf, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "installers", "macos", "mdm", "jamf-preflight-attribute.sh"))
	if err != nil {
		t.Fatal(err)
	}
	testenv.ShellCheck(t, "jamf-preflight-attribute.sh", pf)
}

// The preflight extension attribute runs under busybox sh in a chroot
// laid out like a Mac, with the real wrapper: it prints preflight's line
// inside <result>. Both answers here come before any network check.
func TestJamfPreflightAttribute(t *testing.T) {
	testenv.RequireTool(t, "chroot")
	ea, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "installers", "macos", "mdm", "jamf-preflight-attribute.sh"))
	if err != nil {
		t.Fatal(err)
	}
	m := newMacRoot(t, ea)
	if out := m.runRaw(); out != "<result>preflight: would fail: stage=package code=PROFILE_PREFS_MISSING (exit 61)</result>\n" {
		t.Fatalf("no token: printed %q", out)
	}
	m.write("/Library/Managed Preferences/com.controld.ctrld.plist", []byte(`<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict><key>ProvisionToken</key><string>`+testenv.Canary+` x</string></dict></plist>
`), 0o644)
	out := m.runRaw()
	if out != "<result>preflight: would fail: stage=input code=PROVISION_TOKEN_MALFORMED (exit 21)</result>\n" || strings.Contains(out, testenv.Canary) {
		t.Fatalf("malformed token: printed %q", out)
	}
	os.Remove(m.path(InstallDir + "/" + names.Wrapper))
	if out := m.runRaw(); out != "" {
		t.Fatalf("no wrapper: printed %q", out)
	}
}

// The postinstall is a shim: its commands set PATH and exec the wrapper,
// which does everything else, the move off /usr/local/bin included.
func TestPostinstallIsAShim(t *testing.T) {
	var commands []string
	for _, line := range strings.Split(string(postinstall), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			commands = append(commands, line)
		}
	}
	if len(commands) != 2 || !strings.HasPrefix(commands[0], "PATH=") || !strings.HasPrefix(commands[1], "exec "+InstallDir+"/"+names.Wrapper+" start") {
		t.Fatalf("postinstall is more than a shim:\n%s", strings.Join(commands, "\n"))
	}
}

// The Jamf extension attribute runs under busybox sh in a chroot with the
// real wrapper at its installed path: it prints the recorded line inside
// <result>, nothing when there is none, and nothing from a tampered record.
func TestJamfExtensionAttribute(t *testing.T) {
	testenv.RequireTool(t, "chroot")
	ea, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "installers", "macos", "mdm", "jamf-extension-attribute.sh"))
	if err != nil {
		t.Fatal(err)
	}
	m := newMacRoot(t, ea) // the EA stands where the postinstall would
	run := func() string {
		t.Helper()
		out := m.runRaw()
		return out
	}
	if out := run(); out != "" {
		t.Fatalf("no record: printed %q", out)
	}
	os.MkdirAll(m.path("/etc/controld"), 0o755)
	for _, o := range []codes.Outcome{codes.Success, codes.Failure(codes.ListenerBindFailed)} {
		m.write("/etc/controld/ctrld-install-last-result", []byte(o.Line()+"\n"), 0o644)
		if out := run(); out != "<result>"+o.Line()+"</result>\n" {
			t.Fatalf("printed %q", out)
		}
	}
	m.write("/etc/controld/ctrld-install-last-result", []byte("provisioning complete (exit 0) "+testenv.Canary+"\n"), 0o644)
	if out := run(); out != "" || strings.Contains(out, testenv.Canary) {
		t.Fatalf("tampered record printed %q", out)
	}
}
