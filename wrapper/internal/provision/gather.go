package provision

import (
	"context"
	"errors"
	"io/fs"
	"time"

	"github.com/ctrld-install/ctrld-install/wrapper/settings"
)

// gather merges the sources, highest first: flags and env, the managed
// preferences plist, the settings file, the OS policy.
func (p *Provisioner) gather() settings.Settings {
	s := p.Config.Given
	for _, source := range []settings.Settings{p.readPrefs(), p.readSettingsFile(), p.OS.Policy()} {
		p.remember(source)
		s = s.Merge(source)
	}
	return s
}

func (p *Provisioner) readPrefs() settings.Settings {
	if p.Config.Prefs == "" {
		return nil
	}
	s, err := settings.ReadPlist(p.Config.Prefs)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		p.Log.Warn("managed preferences could not be read; no settings taken from them")
	}
	return s
}

func (p *Provisioner) readSettingsFile() settings.Settings {
	if p.Config.SettingsFile == "" {
		return nil
	}
	cf, err := settings.ReadConfFile(p.Config.SettingsFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case errors.Is(err, settings.ErrInsecureFile):
		p.Log.Warn("settings file is group- or world-writable; refused (chmod 600 it)")
		return nil
	case err != nil:
		p.Log.Warn("settings file could not be read; no settings taken from it")
		return nil
	}
	if cf.Readable {
		p.Log.Warn("settings file is readable by other users; it holds the provisioning token (chmod 600 it)")
	}
	return cf.Settings
}

// waitForToken gathers settings and, while no source has a token, waits for
// the managed-preferences profile to arrive, up to PrefsWait. It fails only
// when interrupted.
func (p *Provisioner) waitForToken(ctx context.Context) (settings.Settings, error) {
	deadline := time.Now().Add(p.Config.PrefsWait)
	for {
		s := p.gather()
		if _, ok := s.Get(settings.ProvisionToken); ok || !time.Now().Before(deadline) {
			return s, nil
		}
		select {
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		case <-time.After(min(p.Config.Poll, time.Until(deadline))):
		}
	}
}
