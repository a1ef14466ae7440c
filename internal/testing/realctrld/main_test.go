//go:build linux

package realctrld

import (
	"os"
	"testing"
)

// scenarios run inside the namespaces; each _test.go file holds one with
// the test that judges it.
var scenarios = map[string]scenario{
	"no-network":           noNetwork,
	"route-to-nowhere":     routeToNowhere,
	"deb-reject-then-fix":  debRejectThenFix,
	"rpm-offline-then-fix": rpmOfflineThenFix,
	"deb-success":          debSuccess,
	"tarball":              tarball,
	"offline-purge":        offlinePurge,
	"offline-erase":        offlineErase,
	"ctrld-outputs":        captureOutputs,
	"ctrld-cli":            captureCLI,
	"ctrld-files":          captureFiles,
	"client-wrapper":       clientThroughTheWrapper,
	"offline-upgrade":      offlineUpgrade,
	"version-upgrade":      versionUpgrade,
	"offline-then-online":  offlineUpgradeThenOnline,
	"line-move":            sysvLineMove,
}

func TestMain(m *testing.M) {
	if code, inside := stageMain(scenarios); inside {
		os.Exit(code)
	}
	os.Exit(m.Run())
}
