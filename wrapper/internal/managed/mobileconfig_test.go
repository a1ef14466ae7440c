package managed_test

import (
	"os"
	"path/filepath"
	"testing"

	"howett.net/plist"

	"github.com/ctrld-install/ctrld-install/installers/macos"
	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/managed"
)

// sampleSerial is what Jamf makes of the profile's serial-number
// variable on one Mac.
const sampleSerial = "C02XK1AAJGH5"

// macOS turns a profile's custom-settings payload into the managed
// preferences file for its PayloadType; the wrapper must read that file
// of the sample profile as it is rendered, in either plist format.
func TestMobileconfigFeedsTheWrapper(t *testing.T) {
	payload := samplePayload(t)
	want := settings.Settings{
		settings.ProvisionToken: "REPLACE_WITH_PROVISIONING_TOKEN", settings.CustomHostname: sampleSerial,
		settings.InterceptMode: "standard", settings.UseDevEnvironment: "false",
	}
	for name, format := range map[string]int{"xml": plist.XMLFormat, "binary": plist.BinaryFormat} {
		prefs, err := plist.Marshal(payload, format)
		if err != nil {
			t.Fatal(err)
		}
		s := readPrefs(t, prefs)
		for k, v := range want {
			if s[k] != v {
				t.Errorf("%s: %s = %q, want %q", name, k, s[k], v)
			}
		}
	}
}

// samplePayload is the custom-settings payload of the sample profile,
// its hostname variable replaced as Jamf does.
func samplePayload(t *testing.T) map[string]any {
	t.Helper()
	data, err := macos.Mobileconfig()
	if err != nil {
		t.Fatal(err)
	}
	var profile struct{ PayloadContent []map[string]any }
	if _, err := plist.Unmarshal(data, &profile); err != nil || len(profile.PayloadContent) != 1 {
		t.Fatalf("the sample profile has no single payload: %v", err)
	}
	payload := profile.PayloadContent[0]
	payload[string(settings.CustomHostname)] = sampleSerial
	return payload
}

// readPrefs reads a managed preferences file as the wrapper does and
// fails on any warning it gives.
func readPrefs(t *testing.T, prefs []byte) settings.Settings {
	t.Helper()
	path := filepath.Join(t.TempDir(), "com.controld.ctrld.plist")
	if err := os.WriteFile(path, prefs, 0o600); err != nil {
		t.Fatal(err)
	}
	files := managed.Files{Prefs: path, Warn: func(msg string) { t.Errorf("the wrapper warns: %s", msg) }}
	return files.Read()
}
