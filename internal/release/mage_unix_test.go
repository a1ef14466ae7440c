//go:build unix

package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/installers/linux"
	"github.com/ctrld-install/ctrld-install/installers/signing"
	"github.com/ctrld-install/ctrld-install/installers/signing/signingtest"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// One `go run mage.go msi pkg`, as a release engineer runs it, signs the
// MSIs and the pkg: each target of the run gets the keys. No go command
// of the run (the go env, go version and go build mage runs, the go
// builds of the release) sees a key path or a password: a fake go on
// PATH records every environment it is given. The fake is a shell
// script, which Windows would not run in place of go.exe.
func TestMageRunSignsEveryTargetAndNoGoCommandSeesASecret(t *testing.T) {
	testenv.WholeRelease(t, "a signed mage run of msi and pkg")
	osslsigncode := testenv.RequireTool(t, "osslsigncode")
	pki := signingtest.NewPKI(t)
	win, mac := pki.Leaf(t, signingtest.Windows()), pki.Leaf(t, signingtest.Installer())
	// The canary names the key folders, so a key path that reaches a go
	// command shows.
	winFiles, macFiles := win.Write(t, canaryDir(t, "windows")), mac.Write(t, canaryDir(t, "pkg"))
	env := canarySecrets()
	env[signing.EnvWindowsCert], env[signing.EnvWindowsKey] = winFiles.Cert, winFiles.Key
	env[signing.EnvPkgCert], env[signing.EnvPkgKey] = macFiles.Cert, macFiles.Key

	repo, goLog := repoCopy(t), filepath.Join(t.TempDir(), "go-env")
	out, err := runMage(t, repo, goLog, env, "msi", "pkg")
	if err != nil {
		t.Fatalf("go run mage.go msi pkg: %v\n%s", err, out)
	}
	if win.Leaks(t, out) || mac.Leaks(t, out) {
		t.Error("the mage run's output carries private key material")
	}

	checkGoSawNoSecret(t, goLog)
	if strings.Contains(string(out), "unsigned") {
		t.Errorf("a target of the run built unsigned:\n%s", out)
	}
	// Each target writes its own manifest, so the files are what is judged.
	msis, _ := filepath.Glob(filepath.Join(repo, "dist", "*.msi"))
	pkgs, _ := filepath.Glob(filepath.Join(repo, "dist", "*.pkg"))
	if len(msis) != len(MsiArches) || len(pkgs) != 1 {
		t.Fatalf("built %d MSIs and %d pkgs, want %d and 1:\n%s", len(msis), len(pkgs), len(MsiArches), out)
	}
	for _, path := range msis {
		if msg, err := exec.Command(osslsigncode, "verify", "-in", path, "-CAfile", winFiles.CA).CombinedOutput(); err != nil || !strings.Contains(string(msg), "Succeeded") {
			t.Errorf("osslsigncode verify %s: %v\n%s", filepath.Base(path), err, msg)
		}
	}
	data, err := os.ReadFile(pkgs[0])
	if err != nil {
		t.Fatal(err)
	}
	checkPkgSignedBy(t, pkgs[0], data, mac.Chain()[0].Raw)
}

// A run asked to sign that cannot (a key that is not the certificate's)
// fails, and leaves no artifact, signed or not.
func TestMageRunAskedToSignThatCannotFails(t *testing.T) {
	testenv.WholeRelease(t, "a mage run with a bad key")
	pki := signingtest.NewPKI(t)
	win, other := pki.Leaf(t, signingtest.Windows()), pki.Leaf(t, signingtest.Windows())
	winFiles, otherFiles := win.Write(t, t.TempDir()), other.Write(t, t.TempDir())
	env := map[string]string{signing.EnvWindowsCert: winFiles.Cert, signing.EnvWindowsKey: otherFiles.Key}

	repo := repoCopy(t)
	out, err := runMage(t, repo, filepath.Join(t.TempDir(), "go-env"), env, "pkg", "msi")
	if err == nil {
		t.Fatalf("a run with a mismatched key succeeded:\n%s", out)
	}
	if !strings.Contains(string(out), "Windows signing") {
		t.Errorf("the failure does not say which signing failed:\n%s", out)
	}
	built, _ := filepath.Glob(filepath.Join(repo, "dist", "*.*"))
	for _, f := range built {
		if ext := filepath.Ext(f); ext == ".msi" || ext == ".pkg" {
			t.Errorf("the failed run left %s", filepath.Base(f))
		}
	}
}

func canaryDir(t *testing.T, name string) string {
	dir := filepath.Join(t.TempDir(), testenv.Canary+"-"+name)
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// canarySecrets sets every secret the msi and pkg targets do not read to
// a canary, as a release engineer's shell may hold them.
func canarySecrets() map[string]string {
	env := map[string]string{}
	for _, v := range []string{signing.EnvWindowsPFXPassword, signing.EnvPkgPFXPassword,
		signing.EnvOldMSICert, signing.EnvOldMSIKey, signing.EnvOldPkgIdentity, linux.KeyEnv, linux.PassphraseEnv} {
		env[v] = testenv.Canary + "-" + v
	}
	return env
}

// repoCopy is the repository's files (tracked, and new ones not ignored)
// in a fresh folder, so the run's dist/ and build/ are the test's own.
func repoCopy(t *testing.T) string {
	t.Helper()
	list, err := exec.Command("git", "-C", testenv.RepoRoot(), "ls-files", "-z", "-co", "--exclude-standard").Output()
	if err != nil {
		testenv.Unavailable(t, "no git checkout to copy: %v", err)
	}
	dst := t.TempDir()
	for _, name := range strings.Split(strings.TrimRight(string(list), "\x00"), "\x00") {
		src := filepath.Join(testenv.RepoRoot(), name)
		info, err := os.Lstat(src)
		if err != nil || !info.Mode().IsRegular() {
			continue // deleted in the worktree, or not a file
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, name), data, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// runMage builds mage.go and runs it with the targets in repo, as `go run
// mage.go targets...` does, with the secrets set and, first on PATH, a go
// that appends its arguments and environment to goLog before running the
// real one. (go run itself would put its own go first on PATH.)
func runMage(t *testing.T, repo, goLog string, secrets map[string]string, targets ...string) ([]byte, error) {
	t.Helper()
	realGo := testenv.RequireTool(t, "go")
	bin := t.TempDir()
	mage := filepath.Join(bin, "mage-run")
	build := exec.Command(realGo, "build", "-o", mage, "mage.go")
	build.Dir = repo
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build mage.go: %v\n%s", err, msg)
	}
	fake := "#!/bin/sh\n{ echo \"go $*\"; env; } >> '" + goLog + "'\nexec '" + realGo + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(mage, targets...)
	cmd.Dir = repo
	cmd.Env = append(childEnv(os.Environ()), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"VERSION=1.2.3", "SOURCE_DATE_EPOCH=1700000000")
	for k, v := range secrets {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	return cmd.CombinedOutput()
}

// checkGoSawNoSecret reads the fake go's log: mage's go env, go version
// and go build ran through it, and none of them, nor any later go
// command, saw a canary.
func checkGoSawNoSecret(t *testing.T, goLog string) {
	t.Helper()
	data, err := os.ReadFile(goLog)
	if err != nil {
		t.Fatalf("the fake go never ran: %v", err)
	}
	log := string(data)
	for _, want := range []string{"go env GOCACHE", "go version", "go build"} {
		if !strings.Contains(log, "\n"+want) && !strings.HasPrefix(log, want) {
			t.Errorf("the fake go did not see %q", want)
		}
	}
	if strings.Contains(log, testenv.Canary) {
		t.Error("a go command of the mage run saw a signing secret")
	}
	for _, v := range SecretVars {
		if strings.Contains(log, v+"=") {
			t.Errorf("a go command of the mage run saw %s", v)
		}
	}
}
