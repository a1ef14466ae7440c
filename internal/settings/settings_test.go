package settings

import (
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

const canary = testenv.Canary

func TestMergeKeyByKey(t *testing.T) {
	high := Settings{ProvisionToken: "", CustomHostname: "high"}
	low := Settings{ProvisionToken: "low-token", CustomHostname: "low", InterceptMode: "standard"}
	m := high.Merge(low)
	if m[ProvisionToken] != "low-token" || m[CustomHostname] != "high" || m[InterceptMode] != "standard" {
		t.Fatalf("merge wrong: %v", m)
	}
}

func TestValidators(t *testing.T) {
	for tok, want := range map[string]bool{
		canary: true, "": false, "a b": false, "tab\tx": false, "nl\n": false,
		"caf\u00e9": false, strings.Repeat("x", 1025): false, "x": true,
		canary + `" --dev "`: false, canary + `\`: false, `"` + canary: false,
	} {
		if TokenWellFormed(tok) != want {
			t.Errorf("TokenWellFormed(%q) != %v", tok, want)
		}
	}
	for h, want := range map[string]bool{
		"mac-01": true, "ab": false, "abc": true, strings.Repeat("a", 64): false,
		strings.Repeat("a", 63) + ".": false, "-abc": false, "abc-": false, "a_b.c": false,
		"host.example.com": true, "a..b": false, "héllo": false,
	} {
		if HostnameValid(h) != want {
			t.Errorf("HostnameValid(%q) != %v", h, want)
		}
	}
	for m, want := range map[string]string{"standard": "off", "intercept-dns": "dns", "dns": "", "Standard": ""} {
		got, ok := InterceptArg(m)
		if got != want || ok != (want != "") {
			t.Errorf("InterceptArg(%q) = %q %v", m, got, ok)
		}
	}
}
