package platform

import (
	"context"
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/contract"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/winacl"
	"github.com/ctrld-install/ctrld-install/wrapper/settings"
)

// ServiceManager is the little of the Service Control Manager the wrapper
// needs.
type ServiceManager interface {
	Exists(name string) bool
	Running(name string) bool
	Restart(ctx context.Context, name string) error
}

// Windows: SCM services, settings from the policy key.
type Windows struct {
	SCM         ServiceManager
	ReadPolicy  func() settings.Settings
	ProgramData string
	// System32 is the system folder the OS reports (GetSystemDirectory),
	// where msiexec lives.
	System32 string
	// ACL makes, judges and takes back folders by their owner and DACL.
	ACL winacl.Claimer
}

// msiexecName is msiexec's file in the system folder.
const msiexecName = "msiexec.exe"

func (Windows) Defaults(ctrldDir string) Defaults { return Defaults{Home: ctrldDir} }

func (Windows) ServiceFiles(string) []string { return nil }

func (w Windows) Installed(svc Service) bool { return w.SCM.Exists(svc.Name) }

func (w Windows) Gate(_ context.Context, svc Service) bool {
	return w.SCM.Exists(svc.Name) && w.SCM.Running(svc.Name)
}

func (w Windows) Reload(ctx context.Context, svc Service) error {
	return w.SCM.Restart(ctx, svc.Name)
}

func (w Windows) Policy() settings.Settings { return w.ReadPolicy() }

// LastResultDir is under ProgramData: an MSI rollback empties the install
// folder, and the record must outlive it.
func (w Windows) LastResultDir(string) string {
	return filepath.Join(w.ProgramData, contract.ProgramDataFolder)
}

// The record folder under ProgramData is one any user could have made
// first: the runs that write in it (start, install-msi) take it back from
// them, and a reader uses it only when SYSTEM and Administrators alone
// control it.

// ClaimRecordDir creates the record folder, taking it back from whoever
// made it; the wrapper's files in a user's folder are removed unread.
func (w Windows) ClaimRecordDir(dir string) error {
	return winacl.Claim(w.ACL, dir, contract.RecordFiles)
}

func (w Windows) PrepareRecordDir(dir string) error { return w.ClaimRecordDir(dir) }

func (w Windows) CheckRecordDir(dir string) error { return winacl.Check(w.ACL, dir) }

func (w Windows) Msiexec() string {
	if w.System32 == "" {
		return ""
	}
	return filepath.Join(w.System32, msiexecName)
}

// Ready: the SCM owns the daemon, so ctrld's commands reach it.
func (Windows) Ready(Service) bool { return true }

// MoveOffLegacyDir has nothing to move: only macOS releases ran ctrld
// from a folder a user could write.
func (Windows) MoveOffLegacyDir(context.Context, Service) error { return nil }

// RemoveLeftovers has nothing to do: the SCM owns the daemon.
func (Windows) RemoveLeftovers(context.Context, Service, time.Duration) {}
