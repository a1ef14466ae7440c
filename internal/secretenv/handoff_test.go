package secretenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

const (
	pfxPasswordVar = "CTRLD_SIGN_WINDOWS_PFX_PASSWORD"
	gpgKeyVar      = "CTRLD_PACKAGE_SIGNING_KEY"
	helperVar      = "SECRETENV_TEST_HELPER"
)

// The helper process stands in for the compiled magefile: it takes the
// secrets, then prints what it took and what a child of its own sees.
func TestMain(m *testing.M) {
	if os.Getenv(helperVar) == "take" {
		os.Exit(takeAndReport())
	}
	os.Exit(m.Run())
}

func takeAndReport() int {
	secrets, err := Take()
	if err != nil {
		os.Stdout.WriteString("error: " + err.Error() + "\n")
		return 1
	}
	os.Stdout.WriteString("took " + secrets.Getenv(pfxPasswordVar) + " " + secrets.Getenv(gpgKeyVar) + "\n")
	env, err := exec.Command("env").Output()
	if err != nil {
		return 2
	}
	os.Stdout.WriteString("child env:\n" + string(env))
	return 0
}

// runTaker runs the helper with the current environment.
func runTaker(t *testing.T) string {
	t.Helper()
	testenv.RequireTool(t, "env")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperVar+"=take")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the taker: %v\n%s", err, out)
	}
	return string(out)
}

// After HandOff no child sees a secret, only the hand-off file's name;
// the process after it (the magefile) takes every secret, deletes the
// hand-off, and its own children see neither.
func TestHandOffKeepsSecretsFromChildrenUntilTaken(t *testing.T) {
	t.Setenv(pfxPasswordVar, testenv.Canary+"-password")
	t.Setenv(gpgKeyVar, testenv.Canary+"-key")
	t.Setenv("CTRLD_SIGN_FUTURE_KIND_KEY", testenv.Canary+"-future")
	cleanup, err := HandOff()
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	path := os.Getenv(handOffVar)
	if path == "" {
		t.Fatal("no hand-off named")
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != privateFile {
		t.Fatalf("hand-off file: %v, %v", info, err)
	}
	if dir, _ := os.Stat(filepath.Dir(path)); dir.Mode().Perm()&0o077 != 0 {
		t.Errorf("hand-off folder mode %v: others can list it", dir.Mode().Perm())
	}
	direct, err := exec.Command(testenv.RequireTool(t, "env")).Output()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(direct), testenv.Canary) {
		t.Fatal("a child started after HandOff (mage's go build) sees a secret")
	}

	out := runTaker(t)
	took, childEnv, _ := strings.Cut(out, "child env:")
	if want := "took " + testenv.Canary + "-password " + testenv.Canary + "-key"; !strings.Contains(took, want) {
		t.Errorf("the magefile took %q, want %q", took, want)
	}
	if strings.Contains(childEnv, testenv.Canary) || strings.Contains(childEnv, handOffVar) {
		t.Error("a child of the magefile sees a secret or the hand-off")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the hand-off is still on disk after it was taken: %v", err)
	}
}

// Run as plain mage (no mage.go), the magefile takes the secrets from
// the environment, and its children still see none.
func TestTakeFromTheEnvironment(t *testing.T) {
	t.Setenv(pfxPasswordVar, testenv.Canary+"-password")
	t.Setenv(gpgKeyVar, testenv.Canary+"-key")
	os.Unsetenv(handOffVar)
	out := runTaker(t)
	took, childEnv, _ := strings.Cut(out, "child env:")
	if !strings.Contains(took, testenv.Canary+"-password") {
		t.Errorf("took %q", took)
	}
	if strings.Contains(childEnv, testenv.Canary) {
		t.Error("a child of the magefile sees a secret")
	}
}

// Take reads and deletes only a file HandOff made: a variable naming any
// other file is refused and the file left alone.
func TestTakeRefusesAFileNotHandedOff(t *testing.T) {
	other := filepath.Join(t.TempDir(), "important.json")
	if err := os.WriteFile(other, []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(handOffVar, other)
	if _, err := Take(); err == nil {
		t.Fatal("Take accepted a file HandOff did not write")
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("Take removed a file it did not write: %v", err)
	}
}

func TestIsSecret(t *testing.T) {
	for name, want := range map[string]bool{
		"CTRLD_SIGN_PKG_KEY": true, "ctrld_sign_windows_pfx_password": true, "CTRLD_MSI_SIGN_CERT": true,
		"CTRLD_PKG_SIGN_IDENTITY": true, "CTRLD_PACKAGE_SIGNING_PASSPHRASE": true, "CTRLD_NOTARY_KEY": true,
		"CTRLD_DIR": false, "VERSION": false, "PATH": false, handOffVar: false,
	} {
		if got := IsSecret(name); got != want {
			t.Errorf("IsSecret(%s) = %v, want %v", name, got, want)
		}
	}
}
