package realctrld_test

import (
	"os"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/realctrld"
)

func TestMain(m *testing.M) {
	if code, inside := realctrld.Main(scenarios); inside {
		os.Exit(code)
	}
	os.Exit(m.Run())
}
