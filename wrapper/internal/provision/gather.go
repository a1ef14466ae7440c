package provision

import (
	"context"
	"time"

	"github.com/ctrld-install/ctrld-install/wrapper/settings"
)

// gather merges the sources, highest first: flags and env, the managed
// preferences plist, the settings file, the OS policy. The files keep
// their warnings from one poll to the next, so each is logged once a run.
func (p *Provisioner) gather() settings.Settings {
	if p.files == nil {
		p.files = &settings.Files{Prefs: p.Config.Prefs, Conf: p.Config.SettingsFile, Warn: p.warn}
	}
	files := p.files.Sources()
	s := p.Config.Given
	for _, source := range []settings.Settings{files[0], files[1], p.OS.Policy()} {
		p.remember(source)
		s = s.Merge(source)
	}
	return s
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
