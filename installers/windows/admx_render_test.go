package windows

import (
	"flag"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

var updateADMX = flag.Bool("update-admx", false, "rewrite the ADMX and ADML from settings.Table")

// TestADMXIsRenderedFromTheTable: the committed ADMX and ADML are what
// ADMX and ADML render from the settings table. Run with -update-admx to
// regenerate them.
func TestADMXIsRenderedFromTheTable(t *testing.T) {
	for _, f := range []struct {
		name   string
		render func() ([]byte, error)
	}{
		{"installers/windows/admx/ControlD.admx", ADMX},
		{"installers/windows/admx/en-US/ControlD.adml", ADML},
	} {
		data, err := f.render()
		if err != nil {
			t.Fatal(err)
		}
		testenv.Generated(t, f.name, data, *updateADMX, "go test ./installers/windows -run ADMX -update-admx")
	}
}
