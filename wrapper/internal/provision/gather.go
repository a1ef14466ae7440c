package provision

import (
	"context"
	"slices"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/managed"
)

// reading is what the managed sources gave at one moment, highest first,
// the token values a file overrode itself, and the warnings reading them
// raised.
type reading struct {
	sources    []settings.Settings
	lostTokens []string
	warnings   []string
}

// gather merges the sources, highest first: flags and env, the managed
// preferences plist, the settings file, the OS policy. The files keep
// their warnings from one poll to the next, so each is logged once a run.
// The sources are read aside, so that an interrupt ends the wait at once
// however long a read takes: the error is then the context's cause. A
// read left behind touches only its own reading.
func (p *Provisioner) gather(ctx context.Context) (settings.Settings, error) {
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	if p.files == nil {
		p.files = &managed.Files{Prefs: p.Config.Prefs, Conf: p.Config.SettingsFile}
	}
	done := make(chan reading, 1)
	go func() { done <- p.read(p.files) }()
	var r reading
	select {
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	case r = <-done:
	}
	s := p.Config.Given
	for _, source := range r.sources {
		p.remember(source)
		s = s.Merge(source)
	}
	p.know(r.lostTokens...)
	// Every token is known before a warning is redacted with them.
	for _, w := range r.warnings {
		p.warn(w)
	}
	return s, nil
}

// read reads the managed sources once.
func (p *Provisioner) read(files *managed.Files) reading {
	var r reading
	files.Warn = func(msg string) { r.warnings = append(r.warnings, msg) }
	f := files.Sources()
	r.sources = []settings.Settings{f[0], f[1], p.OS.Policy()}
	r.lostTokens = slices.Clone(files.LostTokens())
	return r
}

// waitForToken gathers settings and, while no source has a token, waits for
// the managed-preferences profile to arrive, up to PrefsWait. It fails only
// when interrupted.
func (p *Provisioner) waitForToken(ctx context.Context) (settings.Settings, error) {
	deadline := time.Now().Add(p.Config.PrefsWait)
	for {
		s, err := p.gather(ctx)
		if err != nil {
			return nil, err
		}
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
