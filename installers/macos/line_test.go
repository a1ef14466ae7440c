package macos

import (
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/names"
)

// clientPackage is the pkg of the client line: the same slices, named as
// that line names its binary.
func clientPackage(t *testing.T) Package {
	p := testPackage(t)
	p.CtrldName = names.CtrldClient
	return p
}

// scriptsAndPayload reads a built pkg's postinstall and payload paths
// with the project's readers.
func scriptsAndPayload(t *testing.T, pkg string) (postinstall string, paths []string) {
	t.Helper()
	r := openPkg(t, pkg)
	payload, err := r.ReadFile("ctrld.pkg/Payload")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range readCpioGz(t, payload) {
		paths = append(paths, e.h.Name)
	}
	scripts, err := r.ReadFile("ctrld.pkg/Scripts")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range readCpioGz(t, scripts) {
		if e.h.Name == "./postinstall" {
			postinstall = string(e.data)
		}
	}
	return postinstall, paths
}

func TestClientLinePkgInstallsCtrldClient(t *testing.T) {
	t.Parallel()
	postinstall, paths := scriptsAndPayload(t, buildPkg(t, clientPackage(t)))
	want := []string{".", "./Library", "./Library/ControlD", "./Library/ControlD/ctrld-client", "./Library/ControlD/ctrld-install"}
	if strings.Join(paths, " ") != strings.Join(want, " ") {
		t.Fatalf("payload %q", paths)
	}
	if !strings.Contains(postinstall, "exec "+InstallDir+"/"+names.Wrapper+" start --ctrld "+InstallDir+"/ctrld-client ") {
		t.Fatalf("postinstall does not run ctrld-client:\n%s", postinstall)
	}
}

func TestPkgRefusesAShellUnsafeCtrldName(t *testing.T) {
	t.Parallel()
	p := testPackage(t)
	p.CtrldName = "ctrld $(reboot)"
	if _, err := p.Build(&strings.Builder{}); err == nil || !strings.Contains(err.Error(), "ctrld name") {
		t.Fatalf("got %v", err)
	}
}
