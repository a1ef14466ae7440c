package signing_test

import (
	"os"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// shared holds the binaries the tests sign, each built once.
var shared testenv.Shared

func TestMain(m *testing.M) { os.Exit(testenv.RunSharing(m, &shared)) }
