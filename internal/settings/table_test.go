package settings

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

// Each row of the table is complete, and no name is used twice: the
// flags, MSI properties and keys are each one setting's.
func TestTableRowsAreComplete(t *testing.T) {
	seen := map[string]Key{}
	for _, s := range Table {
		for _, name := range []string{"key " + string(s.Key), "flag " + s.Flag, "property " + s.MSIProperty} {
			if other, dup := seen[name]; dup {
				t.Errorf("%s: %s is also %s's", s.Key, name, other)
			}
			seen[name] = s.Key
		}
		if s.Flag == "" || s.FlagUsage == "" || s.MSIProperty == "" || s.Ctrld == nil {
			t.Errorf("%s: a flag, its help, an MSI property and ctrld's arguments are needed", s.Key)
		}
		if s.Doc.Title == "" || s.Doc.Help == "" || s.Doc.Values == "" || s.Doc.Example == "" {
			t.Errorf("%s: documentation missing: %+v", s.Key, s.Doc)
		}
		if s.Kind == Text && s.Doc.Label == "" {
			t.Errorf("%s: a text setting needs a label for the policy's dialog", s.Key)
		}
		for _, c := range s.Choices {
			if other, dup := seen["choice "+c.Name]; dup || c.Name == "" {
				t.Errorf("%s: choice %q needs a name of its own, not %q (also %s's)", s.Key, c.Value, c.Name, other)
			}
			seen["choice "+c.Name] = s.Key
		}
		if s.Checked() && (s.Invalid.Stage != codes.StageInput || s.Kind != Text) {
			t.Errorf("%s: a checked setting is text, refused with an input code, not %+v", s.Key, s.Invalid)
		}
		if s.Valid != nil && (s.Rule == "" || s.MaxLen == 0 || s.Valid(strings.Repeat("a", s.MaxLen+1))) {
			t.Errorf("%s: a free-text check says its rule and its length, %d, and refuses longer", s.Key, s.MaxLen)
		}
		if !s.Accepts(s.Doc.Example) && !strings.HasPrefix(s.Doc.Example, "<") {
			t.Errorf("%s: the example %q would be refused", s.Key, s.Doc.Example)
		}
	}
}

// ctrld gets each set setting as the flags it takes: the token as
// --cd-org, standard as no flag at all, a false boolean as nothing.
func TestCtrldArgumentsOfEachSetting(t *testing.T) {
	for _, tc := range []struct {
		key   Key
		value string
		want  string
	}{
		{ProvisionToken, "tok", "--cd-org=tok"},
		{CustomHostname, "mac-01", "--custom-hostname=mac-01"},
		{InterceptMode, InterceptStandard, ""},
		{InterceptMode, InterceptDNS, "--intercept-mode dns"},
		{UseDevEnvironment, "true", "--dev"},
		{UseDevEnvironment, "1", "--dev"},
		{UseDevEnvironment, "false", ""},
	} {
		s, _ := Lookup(tc.key)
		if got := strings.Join(s.Ctrld(tc.value), " "); got != tc.want {
			t.Errorf("%s=%s: %q, want %q", tc.key, tc.value, got, tc.want)
		}
	}
}

// Reading keys out of an untrusted file costs no allocation, whatever the
// bytes.
func TestIsKeyBytesAllocatesNothing(t *testing.T) {
	inputs := [][]byte{[]byte("UseDevEnvironment"), []byte(strings.Repeat("x", MaxValueLen)), nil}
	if n := testing.AllocsPerRun(100, func() {
		for _, b := range inputs {
			IsKeyBytes(b)
		}
	}); n != 0 {
		t.Fatalf("%v allocations a run", n)
	}
	if k, ok := IsKeyBytes([]byte("UseDevEnvironment")); !ok || k != UseDevEnvironment {
		t.Fatal("a key is not found")
	}
}

// The prose that states a setting's limits is built from the checks'
// own bounds and choices, and the code a bad value gets says the same
// rule.
func TestProseStatesTheChecksLimits(t *testing.T) {
	host, _ := Lookup(CustomHostname)
	longest := strings.Repeat("a", 31) + "." + strings.Repeat("a", maxHostnameLen-32)
	if !HostnameValid(strings.Repeat("a", minHostnameLen)) || HostnameValid(strings.Repeat("a", minHostnameLen-1)) || !HostnameValid(longest) || HostnameValid(longest+"a") {
		t.Fatalf("HostnameValid's bounds are not %d to %d", minHostnameLen, maxHostnameLen)
	}
	for _, prose := range []string{host.Rule, host.Doc.Help, host.Doc.Values, codes.CustomHostnameInvalid.Meaning} {
		if !strings.Contains(prose, hostnameRule) {
			t.Errorf("%q does not say %q", prose, hostnameRule)
		}
	}
	token, _ := Lookup(ProvisionToken)
	if !TokenWellFormed(strings.Repeat("a", maxTokenLen)) || TokenWellFormed(strings.Repeat("a", maxTokenLen+1)) || !strings.Contains(token.Rule, strconv.Itoa(maxTokenLen)+" bytes") {
		t.Errorf("the token's rule %q is not its check's bound, %d bytes", token.Rule, maxTokenLen)
	}
	mode, _ := Lookup(InterceptMode)
	for _, c := range mode.Choices {
		for _, prose := range []string{mode.FlagUsage, mode.Doc.Values, mode.Doc.Help} {
			if !strings.Contains(prose, c.Value) {
				t.Errorf("%q does not name the choice %s", prose, c.Value)
			}
		}
	}
}
