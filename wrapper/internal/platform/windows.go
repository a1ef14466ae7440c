package platform

import (
	"context"
	"path/filepath"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/settings"
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
	SCM        ServiceManager
	ReadPolicy func() settings.Settings
	// ProgramFiles is the native Program Files: the 64-bit one on 64-bit
	// Windows, also for the x86 wrapper, so that every wrapper finds the
	// same record.
	ProgramFiles string
	// System32 is the system folder the OS reports (GetSystemDirectory),
	// where msiexec lives.
	System32 string
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

// RecordDir is the record folder in ControlD under Program Files, where
// only administrators can create anything: no user can have made it, or
// any name in it, first. The MSI installs nothing in it, so a rollback
// leaves the record of why it rolled back.
func (w Windows) RecordDir(string) string {
	return filepath.Join(w.ProgramFiles, names.InstallFolder, names.RecordFolder)
}

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
