package macos

import (
	"bytes"
	"fmt"
	"strconv"
	"text/template"

	"github.com/ctrld-install/ctrld-install/installers/macos/xar"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/settings"
)

// mobileconfigTemplate is the sample configuration profile: one custom
// settings payload for the managed-preferences domain, giving every
// setting its sample value as a plist string or boolean.
const mobileconfigTemplate = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!--
  Example configuration profile for ctrld (managed preferences domain
  {{domain}}). Replace REPLACE_WITH_PROVISIONING_TOKEN with the token
  from the Control D dashboard, adjust or delete the optional keys, and give
  both PayloadUUIDs fresh values (uuidgen). Deliver it before the package:
  ctrld-install waits about two minutes for it on a fresh install.

  CustomHostname holds a Jamf Pro payload variable: Jamf replaces
  $SERIALNUMBER with each computer's serial number when it sends the
  profile, so every Mac gets its own name. $COMPUTERNAME (the computer
  name in Jamf) works the same way, but only where every computer name is
  a valid hostname: 3 to 64 letters, digits, hyphens and dots, no spaces
  or apostrophes; any other name fails with CUSTOM_HOSTNAME_INVALID
  (exit 22). The variables are listed in Jamf Pro Documentation,
  "Computer Configuration Profiles" (payload variables; case-sensitive).
  Other MDMs do not replace them: there, put a literal name or their own
  variables.
-->
<plist version="1.0">
<dict>
	<key>PayloadContent</key>
	<array>
		<dict>
			<key>PayloadType</key>
			<string>{{domain}}</string>
			<key>PayloadIdentifier</key>
			<string>{{domain}}.settings</string>
			<key>PayloadUUID</key>
			<string>3C6E1F0A-7B2D-4E59-9A41-0D8B5C7E2F13</string>
			<key>PayloadVersion</key>
			<integer>1</integer>
			<key>PayloadDisplayName</key>
			<string>Control D provisioning</string>
{{- range .}}
			<key>{{.Key}}</key>
{{- if isBool .}}
			<{{boolValue .}}/>
{{- else}}
			<string>{{xml (value .)}}</string>
{{- end}}
{{- end}}
		</dict>
	</array>
	<key>PayloadDisplayName</key>
	<string>Control D (ctrld)</string>
	<key>PayloadIdentifier</key>
	<string>{{domain}}.profile</string>
	<key>PayloadOrganization</key>
	<string>Control D</string>
	<key>PayloadScope</key>
	<string>System</string>
	<key>PayloadType</key>
	<string>Configuration</string>
	<key>PayloadUUID</key>
	<string>9E47A2B5-1C08-4F6D-B3E2-6A5D0C9F8B71</string>
	<key>PayloadVersion</key>
	<integer>1</integer>
</dict>
</plist>
`

// Mobileconfig renders the sample configuration profile of
// settings.Table.
func Mobileconfig() ([]byte, error) {
	tmpl := template.Must(template.New("mobileconfig").Funcs(profileFuncs).Parse(mobileconfigTemplate))
	var out bytes.Buffer
	if err := tmpl.Execute(&out, settings.Table); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// profileFuncs are what the profile's template needs beyond a setting's
// fields. Keys are identifiers; values are escaped.
var profileFuncs = template.FuncMap{
	"domain":    func() string { return names.ManagedPrefsDomain },
	"isBool":    func(s settings.Setting) bool { return s.Kind == settings.Bool },
	"value":     profileValue,
	"boolValue": profileBool,
	"xml":       xar.Escape,
}

func profileValue(s settings.Setting) string {
	if s.Doc.Profile != "" {
		return s.Doc.Profile
	}
	return s.Doc.Example
}

// profileBool is the plist element, true or false, of a Bool's value.
func profileBool(s settings.Setting) (string, error) {
	b, ok := settings.ParseBool(profileValue(s))
	if !ok {
		return "", fmt.Errorf("%s: sample value %q is not a boolean", s.Key, profileValue(s))
	}
	return strconv.FormatBool(b), nil
}
