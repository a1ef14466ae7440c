package cli

import (
	"time"

	"github.com/ctrld-install/ctrld-install/wrapper/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/evidence"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/report"
	"github.com/ctrld-install/ctrld-install/wrapper/settings"
)

// keepEvidence runs after the record is written: it replaces the copy of
// ctrld's result-file evidence kept beside the record with the one for
// this outcome, or removes it when there is none: success, or no result
// file the wrapper trusts for this attempt. The copy is written only
// beside a record holding the same line, so it never outlives a record
// that could not be written. A run refused by the lock leaves both to the
// run holding it.
func keepEvidence(f *startFlags, osys platform.OS, began time.Time, o codes.Outcome) {
	// The line is delivered already: nothing here may change the exit code.
	defer func() { recover() }()
	if !o.OK && o.Code.Name == "INSTALL_IN_PROGRESS" {
		return
	}
	home := f.homeOrDefault(osys)
	dir := osys.LastResultDir(home)
	if recorded, ok := report.ReadLast(dir); o.OK || !ok || recorded.Line() != o.Line() {
		evidence.Remove(dir)
		return
	}
	r, ok := evidence.FromResultFile(home, began, o, knownTokens(f, osys))
	if !ok || evidence.Save(dir, r) != nil {
		evidence.Remove(dir)
	}
}

// knownTokens lists every provisioning token value any source holds now:
// the command line, the token file, the environment, the managed
// preferences, the settings file and the OS policy.
func knownTokens(f *startFlags, osys platform.OS) []string {
	cfg := f.config(osys, discardWarnings{})
	var tokens []string
	add := func(s settings.Settings) {
		if t, ok := s.Get(settings.ProvisionToken); ok {
			tokens = append(tokens, t)
		}
	}
	add(cfg.Given)
	if cfg.Prefs != "" {
		s, _ := settings.ReadPlist(cfg.Prefs)
		add(s)
	}
	if cfg.SettingsFile != "" {
		if cf, err := settings.ReadConfFile(cfg.SettingsFile); err == nil {
			add(cf.Settings)
		}
	}
	add(osys.Policy())
	return tokens
}

// discardWarnings drops warnings: gathering tokens for redaction must not
// repeat start's warnings in the OS log.
type discardWarnings struct{}

func (discardWarnings) Warn(string) {}
