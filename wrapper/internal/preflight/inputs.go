package preflight

import (
	"context"
	"strings"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/provision"
)

// settingsChecks read the settings as start would (the same sources, the
// same trust rules for the files) and judge them with start's own input
// checks, one check a setting, named after its key. The token itself
// never reaches a detail.
func settingsChecks(ctx context.Context, p *provision.Provisioner, warnings func() []string) []Check {
	s, err := p.Settings(ctx)
	if err != nil {
		return []Check{fail("settings", codes.WrapperInterrupted, "the settings read was stopped")}
	}
	checks := []Check{filesCheck(warnings())}
	if _, ok := s.Get(settings.ProvisionToken); !ok {
		detail := "no provisioning token from any source"
		if p.Config.PrefsWait > 0 {
			detail += "; start would wait up to " + p.Config.PrefsWait.String() + " for the managed-preferences profile"
		}
		return append(checks, fail(string(settings.ProvisionToken), codes.ProfilePrefsMissing, detail))
	}
	for _, check := range provision.InputChecks {
		name := string(check.Key)
		if c, why, bad := check.Judge(s, p.Seen()); bad {
			checks = append(checks, fail(name, c, why))
			continue
		}
		checks = append(checks, pass(name, settingDetail(check.Key, s)))
	}
	return checks
}

// settingDetail describes a good setting. A secret is only said to be
// there; the other values are safe to show once they passed their check.
func settingDetail(k settings.Key, s settings.Settings) string {
	if st, _ := settings.Lookup(k); st.Secret {
		return "set and well-formed"
	}
	if v, ok := s.Get(k); ok {
		return v
	}
	return "not set: ctrld's default"
}

// filesCheck reports what start would say of the settings files. A
// refused file is ignored by start, so it predicts no failure by itself;
// the token check says whether a token came from elsewhere.
func filesCheck(warnings []string) Check {
	const name = "settings-files"
	if len(warnings) == 0 {
		return pass(name, "every settings file present is trusted")
	}
	return warn(name, strings.Join(warnings, "; "))
}
