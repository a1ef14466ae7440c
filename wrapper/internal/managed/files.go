// Package managed reads the wrapper's managed settings sources: the
// managed-preferences plist (binary or XML), the Linux settings file and
// the Windows policy key. Each is untrusted: capped, read in bounded
// memory and time, and checked against the settings table.
package managed

import (
	"errors"
	"io/fs"
	"slices"

	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/safefile"
)

// Files reads the managed-settings files of one run: the plist (Prefs)
// wins over the settings file (Conf) key by key; an empty path is no
// source. The profile wait reads them again and again, so each warning
// goes to Warn once per run, however often they are read. Warnings name
// the rule a file broke, never a value.
type Files struct {
	Prefs, Conf string
	Warn        func(msg string)
	said        map[string]bool
	lost        []string
}

// maxLostPerRun bounds LostTokens over all the reads of a run.
const maxLostPerRun = 4 * maxLostTokens

// LostTokens are the ProvisionToken values that a later entry of the same
// file overrode, in any read of this run so far: they are never used but
// must be redacted like every other token.
func (f *Files) LostTokens() []string { return f.lost }

func (f *Files) keepLost(tokens []string) {
	for _, t := range tokens {
		if len(f.lost) < maxLostPerRun && !slices.Contains(f.lost, t) {
			f.lost = append(f.lost, t)
		}
	}
}

// Read returns the settings the files give now.
func (f *Files) Read() settings.Settings {
	s := f.Sources()
	return s[0].Merge(s[1])
}

// Sources returns what each file gives now, highest first: the plist,
// then the settings file.
func (f *Files) Sources() [2]settings.Settings {
	return [2]settings.Settings{f.readPrefs(), f.readConf()}
}

func (f *Files) warn(msg string) {
	if f.said == nil {
		f.said = map[string]bool{}
	}
	if f.said[msg] || f.Warn == nil {
		return
	}
	f.said[msg] = true
	f.Warn(msg)
}

func (f *Files) readPrefs() settings.Settings {
	if f.Prefs == "" {
		return nil
	}
	p, err := readPlist(f.Prefs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		f.warn("managed preferences could not be read (" + reason(err) + "); no settings taken from them")
		return nil
	}
	for _, n := range p.Notes {
		f.warn("managed preferences: " + n)
	}
	f.keepLost(p.LostTokens)
	return p.Settings
}

func (f *Files) readConf() settings.Settings {
	if f.Conf == "" {
		return nil
	}
	cf, err := ReadConfFile(f.Conf)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		f.warn("settings file refused: " + reason(err) + "; no settings taken from it" + remedy(err))
		return nil
	}
	if cf.Readable {
		f.warn("settings file is readable by other users; it holds the provisioning token (chmod 600 it)")
	}
	for _, n := range cf.Notes {
		f.warn("settings file: " + n)
	}
	f.keepLost(cf.LostTokens)
	return cf.Settings
}

// reason names the rule a file broke, in words fixed here.
func reason(err error) string {
	for _, known := range []error{ErrInsecureFile, ErrNotRootOwned, safefile.ErrNotRegular, safefile.ErrTooLarge} {
		if errors.Is(err, known) {
			return known.Error()
		}
	}
	if errors.Is(err, ErrUnreadable) {
		return "not a plist dictionary of settings"
	}
	return "the file could not be opened"
}

func remedy(err error) string {
	switch {
	case errors.Is(err, ErrInsecureFile):
		return " (chmod 600 it)"
	case errors.Is(err, ErrNotRootOwned):
		return " (chown root:root it)"
	}
	return ""
}
