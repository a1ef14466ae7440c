package settings

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

// Kind is the type of a setting's value.
type Kind int

const (
	// Text is a string.
	Text Kind = iota
	// Bool is true or false. Sources may also give it as 1 or 0, yes or
	// no, a plist boolean or integer, or a REG_DWORD.
	Bool
)

// Setting declares one provisioning setting. Its Key is its name in every
// source: the plist key, the settings-file key, the value name under the
// policy key and the ADMX policy's name. Everything else that names or
// checks a setting is derived from Table.
type Setting struct {
	Key  Key
	Kind Kind
	// Choices are the only values a Text setting takes, in documented
	// order; none means any text Valid accepts.
	Choices []Choice
	// Valid reports whether ctrld would take a free-text value.
	Valid func(v string) bool
	// MaxLen is the longest valid free-text value.
	MaxLen int
	// Invalid is the code of a value ctrld would refuse; Rule says in
	// words what makes a free-text value valid.
	Invalid codes.Code
	Rule    string
	// Secret values never reach a log: the MSI hides the property and
	// messages describe the value instead of quoting it.
	Secret bool
	// Ctrld gives the arguments of ctrld start that a set value becomes
	// on a fresh install.
	Ctrld func(v string) []string
	// Flag is the wrapper's start flag, without dashes; it beats the
	// managed settings. FlagUsage is its help.
	Flag, FlagUsage string
	// MSIProperty is the public property an admin sets on msiexec's
	// command line.
	MSIProperty string
	Doc         Doc
}

// Choice is one value of an enumerated setting and the value of ctrld's
// flag it stands for. Name identifies it where Value cannot: the ADML
// string that shows it in the ADMX's list. Help says what it does.
type Choice struct{ Value, Ctrld, Name, Help string }

// Doc is what the guides, the ADMX template and the sample profile say
// of a setting.
type Doc struct {
	// Title names the setting (the policy's display name); Help explains
	// it (the policy's explanation).
	Title, Help string
	// Label names a Text setting's box or list in the policy's dialog.
	Label string
	// Values is the value column of the guides' tables.
	Values string
	// Example is the value the Linux guide's sample file gives, and the
	// sample profile unless Profile says otherwise.
	Example, Profile string
}

// Table is every setting, in documentation order: the order of ctrld's
// arguments, of start's input checks and of the MSI's command line.
var Table = []Setting{
	{
		Key: ProvisionToken, Kind: Text, Secret: true,
		Valid: TokenWellFormed, MaxLen: maxTokenLen, Invalid: codes.ProvisionTokenMalformed,
		Rule:        fmt.Sprintf("whitespace, control characters, quotes, backslashes, non-ASCII and more than %d bytes are refused", maxTokenLen),
		Ctrld:       func(v string) []string { return []string{"--cd-org=" + v} },
		Flag:        "token",
		FlagUsage:   "the provisioning token itself, for installers that can pass it only on the command line (the MSI); empty means none",
		MSIProperty: "PROVISION_TOKEN",
		Doc: Doc{
			Title:   "Provisioning token",
			Help:    "The provisioning token from the Control D dashboard. Used on a fresh install only; upgrades do not need it. An MSI property PROVISION_TOKEN given on the command line takes precedence.",
			Label:   "Token:",
			Values:  "the provisioning token from the Control D dashboard (needed for a fresh install only)",
			Example: "<token from the Control D dashboard>",
			Profile: "REPLACE_WITH_PROVISIONING_TOKEN",
		},
	},
	{
		Key: CustomHostname, Kind: Text,
		Valid: HostnameValid, MaxLen: maxHostnameLen, Invalid: codes.CustomHostnameInvalid,
		Rule:        hostnameRule,
		Ctrld:       func(v string) []string { return []string{"--custom-hostname=" + v} },
		Flag:        "custom-hostname",
		FlagUsage:   "CustomHostname setting: " + hostnameRule + " (beats managed settings)",
		MSIProperty: "CUSTOM_HOSTNAME",
		Doc: Doc{
			Title:   "Custom hostname",
			Help:    "The device name to register: " + hostnameRule + " (letters, digits, hyphens, dots).",
			Label:   "Hostname:",
			Values:  "optional; " + hostnameRule,
			Example: "web-01",
			Profile: jamfSerialNumber,
		},
	},
	{
		Key: InterceptMode, Kind: Text,
		Choices:     interceptChoices,
		Invalid:     codes.InterceptModeInvalid,
		Ctrld:       interceptArgs,
		Flag:        "intercept-mode",
		FlagUsage:   "InterceptMode setting: " + choiceList(interceptChoices, "") + " (beats managed settings)",
		MSIProperty: "INTERCEPT_MODE",
		Doc: Doc{
			Title:   "Intercept mode",
			Help:    choiceHelp(interceptChoices) + " On an upgrade, setting this restarts ctrld in that mode.",
			Label:   "Mode:",
			Values:  "optional; " + choiceList(interceptChoices, "`"),
			Example: InterceptStandard,
		},
	},
	{
		Key: UseDevEnvironment, Kind: Bool,
		Ctrld:       devArgs,
		Flag:        "dev",
		FlagUsage:   "UseDevEnvironment setting (--dev, or --dev=true|false|1|0; empty is false)",
		MSIProperty: "USE_DEV_ENVIRONMENT",
		Doc: Doc{
			Title:   "Use the development environment",
			Help:    "Provision against Control D's development environment. For testing only.",
			Values:  "optional; testing only",
			Example: strconv.FormatBool(false),
		},
	},
}

// CtrldInterceptFlag is ctrld's flag for InterceptMode. interceptOff is
// its value for no interception, ctrld's default: a fresh start leaves
// the flag out for it.
const (
	CtrldInterceptFlag = "--intercept-mode"
	interceptOff       = "off"
)

var interceptChoices = []Choice{
	{Value: InterceptStandard, Ctrld: interceptOff, Name: "InterceptStandard", Help: "ctrld listens on its own address."},
	{Value: InterceptDNS, Ctrld: "dns", Name: "InterceptDNS", Help: "ctrld intercepts all DNS traffic."},
}

// hostnameRule says in words what HostnameValid accepts.
var hostnameRule = fmt.Sprintf("an RFC 1123 name of %d to %d characters", minHostnameLen, maxHostnameLen)

// choiceList names the values of choices, each between quote, as
// "a or b" or "a, b or c".
func choiceList(choices []Choice, quote string) string {
	var values []string
	for _, c := range choices {
		values = append(values, quote+c.Value+quote)
	}
	if len(values) < 2 {
		return strings.Join(values, "")
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}

// choiceHelp says what each choice does, in order.
func choiceHelp(choices []Choice) string {
	var parts []string
	for _, c := range choices {
		parts = append(parts, c.Value+": "+c.Help)
	}
	return strings.Join(parts, " ")
}

// jamfSerialNumber is the Jamf Pro payload variable Jamf replaces with
// each computer's serial number, so every Mac gets its own hostname.
const jamfSerialNumber = "$SERIALNUMBER"

func interceptArgs(mode string) []string {
	arg, ok := InterceptArg(mode)
	if !ok || arg == interceptOff {
		return nil
	}
	return []string{CtrldInterceptFlag, arg}
}

func devArgs(v string) []string {
	if b, _ := ParseBool(v); b {
		return []string{"--dev"}
	}
	return nil
}

// Keys lists every setting's key, in Table's order.
var Keys = tableKeys()

func tableKeys() []Key {
	keys := make([]Key, len(Table))
	for i, s := range Table {
		keys[i] = s.Key
	}
	return keys
}

// Lookup returns the declaration of k.
func Lookup(k Key) (Setting, bool) {
	i := slices.IndexFunc(Table, func(s Setting) bool { return s.Key == k })
	if i < 0 {
		return Setting{}, false
	}
	return Table[i], true
}

// Accepts reports whether ctrld would take v, which is set.
func (s Setting) Accepts(v string) bool {
	switch {
	case len(s.Choices) > 0:
		_, ok := s.choice(v)
		return ok
	case s.Valid != nil:
		return s.Valid(v)
	}
	return true
}

// Checked reports whether some values of s are refused before ctrld runs.
func (s Setting) Checked() bool { return len(s.Choices) > 0 || s.Valid != nil }

// ChoiceValues are the values of an enumerated setting, in order.
func (s Setting) ChoiceValues() []string {
	values := make([]string, len(s.Choices))
	for i, c := range s.Choices {
		values[i] = c.Value
	}
	return values
}

func (s Setting) choice(v string) (Choice, bool) { return findChoice(s.Choices, v) }

func findChoice(choices []Choice, v string) (Choice, bool) {
	i := slices.IndexFunc(choices, func(c Choice) bool { return c.Value == v })
	if i < 0 {
		return Choice{}, false
	}
	return choices[i], true
}
