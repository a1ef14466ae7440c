package macos

import (
	"fmt"
	"strings"
	"testing"

	"howett.net/plist"

	"github.com/ctrld-install/ctrld-install/internal/settings"
)

// jamfSerialVariable is Jamf Pro's payload variable for the serial
// number; sampleSerial is what it becomes on one Mac.
const (
	jamfSerialVariable = "$SERIALNUMBER"
	sampleSerial       = "C02XK1AAJGH5"
)

// The sample profile's custom-settings payload gives every setting of the
// table, each as the wrapper reads it; the wrapper's own test reads the
// managed preferences macOS makes of it.
func TestMobileconfigPayloadMatchesTable(t *testing.T) {
	data, err := Mobileconfig()
	if err != nil {
		t.Fatal(err)
	}
	var profile struct {
		PayloadType    string
		PayloadContent []map[string]any
	}
	if _, err := plist.Unmarshal(data, &profile); err != nil {
		t.Fatalf("not a plist: %v", err)
	}
	if profile.PayloadType != "Configuration" || len(profile.PayloadContent) != 1 {
		t.Fatalf("profile %q with %d payloads", profile.PayloadType, len(profile.PayloadContent))
	}
	payload := profile.PayloadContent[0]
	if payload["PayloadType"] != "com.controld.ctrld" {
		t.Fatalf("payload domain %v", payload["PayloadType"])
	}
	// The hostname is Jamf's serial-number variable; Jamf replaces it
	// before the Mac sees the profile.
	if payload["CustomHostname"] != jamfSerialVariable {
		t.Fatalf("CustomHostname %v, want the Jamf variable %s", payload["CustomHostname"], jamfSerialVariable)
	}
	payload["CustomHostname"] = sampleSerial
	for _, problem := range payloadAgainstTable(payload) {
		t.Error(problem)
	}
}

// payloadAgainstTable says how the example payload differs from the
// settings table: it gives every setting, as a plist string or boolean
// after the setting's kind, a value the wrapper accepts, and no key the
// wrapper does not read besides the payload's own.
func payloadAgainstTable(payload map[string]any) []string {
	var problems []string
	for _, st := range settings.Table {
		v, ok := payload[string(st.Key)]
		switch text, isText := v.(string); {
		case !ok:
			problems = append(problems, string(st.Key)+" is missing")
		case st.Kind == settings.Bool:
			if _, isBool := v.(bool); !isBool {
				problems = append(problems, fmt.Sprintf("%s is a %T, not a boolean", st.Key, v))
			}
		case !isText:
			problems = append(problems, fmt.Sprintf("%s is a %T, not a string", st.Key, v))
		case !st.Accepts(text):
			problems = append(problems, fmt.Sprintf("%s %q would be refused", st.Key, text))
		}
	}
	for k := range payload {
		if _, known := settings.Lookup(settings.Key(k)); !known && !strings.HasPrefix(k, "Payload") {
			problems = append(problems, k+" is no setting of the table")
		}
	}
	return problems
}
