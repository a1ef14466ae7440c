package provision

import (
	"strings"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/secret"
)

// checkInputs reports ctrld's own input codes for settings ctrld would
// refuse, so one failure has one code whoever finds it. The OS log
// describes the offending value, never quoting it.
func (p *Provisioner) checkInputs(s settings.Settings) (codes.Outcome, bool) {
	for _, check := range InputChecks {
		if c, why, bad := check.Judge(s, p.seen); bad {
			p.warn(why)
			return codes.Failure(c), true
		}
	}
	return codes.Outcome{}, false
}

// InputCheck judges one setting as ctrld would. When the setting is bad,
// Judge returns ctrld's input code and why, in words that quote no value
// (seen, every token value met, is there for checks that would).
type InputCheck struct {
	Key   settings.Key
	Judge func(s settings.Settings, seen []string) (c codes.Code, why string, bad bool)
}

// InputChecks are start's checks of the settings, in start's order: one
// for each setting of the table with values ctrld refuses.
var InputChecks = inputChecks()

func inputChecks() []InputCheck {
	var checks []InputCheck
	for _, st := range settings.Table {
		if st.Checked() {
			checks = append(checks, InputCheck{st.Key, judge(st)})
		}
	}
	return checks
}

// judge checks the value of st when it is set. The callers report a
// missing token, PROFILE_PREFS_MISSING, before any check.
func judge(st settings.Setting) func(settings.Settings, []string) (codes.Code, string, bool) {
	return func(s settings.Settings, seen []string) (codes.Code, string, bool) {
		v, set := s.Get(st.Key)
		if !set || st.Accepts(v) {
			return codes.Code{}, "", false
		}
		return st.Invalid, refusal(st, v), true
	}
}

// refusal says why ctrld would refuse v without quoting any of it: a
// bad value of any setting may be a token typed into the wrong field, and
// whether a token is known to redact or not, only the value's length and
// kinds of characters are told. An enumerated setting names its choices.
func refusal(st settings.Setting, v string) string {
	key := string(st.Key)
	switch {
	case st.Secret:
		return key + " is malformed (" + secret.Describe(v) + "; " + st.Rule + ")"
	case len(st.Choices) > 0:
		return key + " (" + secret.Describe(v) + ") is not " + strings.Join(st.ChoiceValues(), " or ")
	}
	return key + " (" + secret.Describe(v) + ") is not " + st.Rule
}
