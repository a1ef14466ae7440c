package macos

import (
	"flag"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

var updateMobileconfig = flag.Bool("update-mobileconfig", false, "rewrite the sample configuration profile from settings.Table")

// TestMobileconfigIsRenderedFromTheTable: the committed sample profile is
// what Mobileconfig renders from the settings table. Run with
// -update-mobileconfig to regenerate it.
func TestMobileconfigIsRenderedFromTheTable(t *testing.T) {
	data, err := Mobileconfig()
	if err != nil {
		t.Fatal(err)
	}
	testenv.Generated(t, "installers/macos/mdm/ctrld.mobileconfig", data, *updateMobileconfig, "go test ./installers/macos -run Mobileconfig -update-mobileconfig")
}
