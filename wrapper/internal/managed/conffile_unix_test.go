//go:build unix

package managed

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

func TestConfFile(t *testing.T) {
	testenv.RequireRoot(t, "only a settings file root owns counts")
	dir := t.TempDir()
	path := filepath.Join(dir, "ctrld-install.conf")
	body := "# ctrld-install settings\r\nProvisionToken = " + canary + "\r\nCustomHostname=\"web-01\"\nInterceptMode=standard\nUseDevEnvironment=yes\nbogus line\nOther=1\n"
	os.WriteFile(path, []byte(body), 0o600)
	cf, err := ReadConfFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if cf.Readable {
		t.Error("0600 file reported readable by others")
	}
	s := cf.Settings
	if s[settings.ProvisionToken] != canary || s[settings.CustomHostname] != "web-01" || s[settings.InterceptMode] != "standard" || s[settings.UseDevEnvironment] != "true" || len(s) != 4 {
		t.Fatalf("got %v keys", len(s))
	}

	os.Chmod(path, 0o644)
	if cf, err := ReadConfFile(path); err != nil || !cf.Readable {
		t.Fatalf("world-readable file: %v %v", cf.Readable, err)
	}
	os.Chmod(path, 0o666)
	if _, err := ReadConfFile(path); !errors.Is(err, ErrInsecureFile) {
		t.Fatalf("world-writable file: %v", err)
	}
}

func TestReadConfFileRefusals(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.conf")
	os.WriteFile(good, []byte("ProvisionToken="+canary+"\n"), 0o600)
	link := filepath.Join(dir, "link.conf")
	os.Symlink(good, link)
	if _, err := ReadConfFile(link); !errorIs(err, ErrUnreadable) || reason(err) != "not a regular file (a link, FIFO, device or directory)" {
		t.Fatalf("symlink: %v (%s)", err, reason(err))
	}

	testenv.RequireRoot(t, "owning the good file as root and another as a user")
	if cf, err := ReadConfFile(good); err != nil || cf.Settings[settings.ProvisionToken] != canary {
		t.Fatalf("good file: %v", err)
	}
	other := filepath.Join(dir, "other.conf")
	os.WriteFile(other, []byte("ProvisionToken="+canary+"\n"), 0o600)
	if err := os.Chown(other, 1000, 0); err != nil {
		t.Fatal(err)
	}
	_, err := ReadConfFile(other)
	if !errorIs(err, ErrNotRootOwned) || strings.Contains(err.Error(), canary) {
		t.Fatalf("owned by uid 1000: %v", err)
	}
}
