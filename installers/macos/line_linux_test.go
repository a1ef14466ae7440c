package macos

import (
	"os"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"howett.net/plist"
)

// leftoverV1 stands for the ctrld an older package left in InstallDir
// (Installer removes no file of a previous version): run, it says so and
// fails.
var leftoverV1 = []byte("#!/bin/sh\necho \"$*\" >> /tmp/v1-ran\nexit 1\n")

// The client pkg's postinstall, run where an older v1 package left its
// ctrld beside the new ctrld-client, drives ctrld-client (the fake, in
// client mode by its name), never the leftover.
func TestClientLinePostinstallRunsCtrldClient(t *testing.T) {
	t.Parallel()
	testenv.RequireTool(t, "chroot")
	script, _ := scriptsAndPayload(t, buildPkg(t, clientPackage(t)))
	bins, err := simulatedBinaries()
	if err != nil {
		t.Fatal(err)
	}
	m := newMacRoot(t, []byte(script))
	m.copy(bins[1], InstallDir+"/"+names.CtrldClient, 0o755)
	m.write(InstallDir+"/"+names.Ctrld, leftoverV1, 0o755)
	clientPlist := names.LaunchDaemonsDir + "/" + names.CtrldClient + ".plist"
	m.write(InstallDir+"/fake-ctrld.scenario", []byte(strings.Join([]string{"home=" + names.Home, "service-file=" + clientPlist, "record=/tmp/ctrld-calls"}, "\n")+"\n"), 0o644)
	m.prefs(plist.XMLFormat, map[string]any{"ProvisionToken": testenv.Canary})
	if line := m.run(0); line != "provisioning complete (exit 0)" {
		t.Fatalf("line %q", line)
	}
	if ran := m.read("/tmp/v1-ran"); ran != "" {
		t.Fatalf("the postinstall ran the leftover v1 ctrld: %q", ran)
	}
	if calls := m.read("/tmp/ctrld-calls"); !strings.HasPrefix(calls, "start --cd-org=") {
		t.Fatalf("ctrld-client calls %q", calls)
	}
	if _, err := os.Stat(m.path(clientPlist)); err != nil {
		t.Fatalf("no %s: %v", clientPlist, err)
	}
}
