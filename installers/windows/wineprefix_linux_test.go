package windows

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// wineboot takes tens of seconds, so one prefix is booted per run and
// every test gets a full copy of it: its own files, registry and
// wineserver (Wine runs one server per prefix folder).

// wineSettings keep Wine quiet and headless, and stop wineboot from
// asking to install Mono and Gecko.
var wineSettings = []string{"WINEDEBUG=-all", "WINEDLLOVERRIDES=mscoree,mshtml=", "DISPLAY="}

func wineEnv(prefix string) []string {
	return append(append(os.Environ(), "WINEPREFIX="+prefix), wineSettings...)
}

var templatePrefix = struct {
	once sync.Once
	dir  string
	err  error
}{}

// bootedTemplate is the prefix every test copies, booted on first use.
func bootedTemplate() (string, error) {
	templatePrefix.once.Do(func() {
		templatePrefix.dir, templatePrefix.err = bootTemplate()
	})
	return templatePrefix.dir, templatePrefix.err
}

func bootTemplate() (string, error) {
	dir, err := os.MkdirTemp("", "ctrld-wine-template")
	if err != nil {
		return "", err
	}
	if err := runWineTool(dir, 3*time.Minute, "wineboot", "-i"); err != nil {
		return dir, err
	}
	if err := installCryptoStub(dir); err != nil {
		return dir, err
	}
	// Wine keeps the registry in the server's memory and writes it out
	// when the server exits; a copy taken before would have none.
	if err := runWineTool(dir, time.Minute, "wineserver", "-w"); err != nil {
		return dir, err
	}
	if err := noFileNames(dir); err != nil {
		return dir, err
	}
	return dir, nil
}

func runWineTool(prefix string, timeout time.Duration, name string, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = wineEnv(prefix)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v\n%s", name, err, out)
	}
	return nil
}

// installCryptoStub puts the stub of bcryptprimitives.dll that Go's
// Windows programs need in place of the one Wine 8 lacks.
func installCryptoStub(prefix string) error {
	stub, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "installers", "windows", "winestub", "bcryptprimitives.dll"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(prefix, "drive_c", "windows", "system32", "bcryptprimitives.dll"), stub, 0o644)
}

// noFileNames fails when a file or link of the prefix names the prefix's
// own folder: a copy would then still read or write the template.
func noFileNames(prefix string) error {
	var naming []string
	err := filepath.WalkDir(prefix, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if names, err := namesFolder(path, d, prefix); err != nil || names {
			naming = append(naming, path)
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(naming) > 0 {
		return fmt.Errorf("the booted prefix names its own folder in %s", strings.Join(naming, ", "))
	}
	return nil
}

func namesFolder(path string, d fs.DirEntry, folder string) (bool, error) {
	switch {
	case d.Type()&fs.ModeSymlink != 0:
		target, err := os.Readlink(path)
		return strings.Contains(target, folder), err
	case d.Type().IsRegular():
		data, err := os.ReadFile(path)
		return bytes.Contains(data, []byte(folder)), err
	}
	return false, nil
}

// copyTemplate fills prefix, an empty folder, with a copy of the booted
// template. The copy shares no file with it: cp -a copies every file (or
// clones it, where the file system can) and keeps the prefix's links,
// which are relative or point outside it.
func copyTemplate(t *testing.T, prefix string) {
	t.Helper()
	template, err := bootedTemplate()
	if err != nil {
		t.Fatalf("booting the Wine prefix: %v", err)
	}
	out, err := exec.Command("cp", "-a", "--reflink=auto", template+"/.", prefix).CombinedOutput()
	if err != nil {
		t.Fatalf("copying the Wine prefix: %v\n%s", err, out)
	}
}

// TestMain removes the template prefix and the Windows builds, which
// outlive any one test.
func TestMain(m *testing.M) {
	code := m.Run()
	if templatePrefix.dir != "" {
		os.RemoveAll(templatePrefix.dir)
	}
	if winBinaries.ctrld != "" {
		os.RemoveAll(filepath.Dir(winBinaries.ctrld))
	}
	os.Exit(code)
}
