package windows

// admlTemplate is the ADMX's English strings: each policy's title and
// explanation, the name of each choice of a list, and the dialog of each
// Text setting.
const admlTemplate = `<?xml version="1.0" encoding="utf-8"?>
<policyDefinitionResources xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                           revision="1.0" schemaVersion="1.0" xmlns="http://schemas.microsoft.com/GroupPolicy/2006/07/PolicyDefinitions">
  <displayName>Control D (ctrld)</displayName>
  <description>Provisioning settings for the Control D DNS client, read by ctrld-install when the MSI installs ctrld.</description>
  <resources>
    <stringTable>
      <string id="ControlD">Control D</string>
{{- range .}}
      <string id="{{.Key}}">{{xml .Doc.Title}}</string>
      <string id="{{.Key}}_Help">{{xml .Doc.Help}}</string>
{{- range .Choices}}
      <string id="{{.Name}}">{{xml .Value}}</string>
{{- end}}
{{- end}}
    </stringTable>
    <presentationTable>
{{- range .}}
{{- if .Choices}}
      <presentation id="{{.Key}}"><dropdownList refId="{{.Key}}" noSort="true" defaultItem="0">{{xml .Doc.Label}}</dropdownList></presentation>
{{- else if not (isBool .)}}
      <presentation id="{{.Key}}"><textBox refId="{{.Key}}"><label>{{xml .Doc.Label}}</label></textBox></presentation>
{{- end}}
{{- end}}
    </presentationTable>
  </resources>
</policyDefinitionResources>
`

// ADML renders the English strings of the ADMX of settings.Table.
func ADML() ([]byte, error) { return renderTable("adml", admlTemplate) }
