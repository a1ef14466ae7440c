//go:build unix

package provision

import (
	"path/filepath"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

// The Linux service files are Unix paths, so the defaults are checked
// where those paths are built.
func TestResolveDefaults(t *testing.T) {
	ctrld := filepath.Join(t.TempDir(), "ctrld-client")
	cfg := Resolve(Input{Ctrld: ctrld}, platform.Linux{}, nil, &warnings{})
	if cfg.Home != names.Home || cfg.RecordDir != names.Home || cfg.SettingsFile != names.LinuxSettings {
		t.Fatalf("Linux defaults: %+v", cfg)
	}
	if cfg.ServiceFiles[0] != "/etc/systemd/system/ctrld-client.service" {
		t.Fatalf("service files follow the binary's name: %v", cfg.ServiceFiles)
	}
	win := platform.Windows{ProgramFiles: `C:\Program Files`}
	cfg = Resolve(Input{Ctrld: ctrld, ServiceFile: "/x.service", PrefsWait: 0, PrefsWaitSet: true}, win, nil, &warnings{})
	if cfg.Home != filepath.Dir(ctrld) || cfg.RecordDir != filepath.Join(`C:\Program Files`, names.InstallFolder, names.RecordFolder) {
		t.Fatalf("Windows: home %q, records %q", cfg.Home, cfg.RecordDir)
	}
	if len(cfg.ServiceFiles) != 1 || cfg.ServiceFiles[0] != "/x.service" {
		t.Fatalf("--service-file not used: %v", cfg.ServiceFiles)
	}
	mac := Resolve(Input{Ctrld: ctrld}, platform.Darwin{}, nil, &warnings{})
	if mac.Prefs != names.ManagedPrefs || mac.PrefsWait == 0 {
		t.Fatalf("macOS defaults: %+v", mac)
	}
}
