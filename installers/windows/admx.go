package windows

import (
	"bytes"
	"strings"
	"text/template"

	"github.com/ctrld-install/ctrld-install/internal/settings"
)

// admxTemplate is the administrative template: one machine policy a
// setting under the policy key. A Bool is the policy's own value, 1 or 0;
// a Text is one list of its choices or one text box.
const admxTemplate = `<?xml version="1.0" encoding="utf-8"?>
<!-- Administrative template for ctrld provisioning settings. The values land
     in HKLM\{{policyKey}}, which ctrld-install reads. -->
<policyDefinitions xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                   revision="1.0" schemaVersion="1.0" xmlns="http://schemas.microsoft.com/GroupPolicy/2006/07/PolicyDefinitions">
  <policyNamespaces>
    <target prefix="controld" namespace="ControlD.Policies.Ctrld"/>
    <using prefix="windows" namespace="Microsoft.Policies.Windows"/>
  </policyNamespaces>
  <resources minRequiredRevision="1.0"/>
  <categories>
    <category name="ControlD" displayName="$(string.ControlD)"/>
  </categories>
  <policies>
{{- range .}}
{{- if isBool .}}
    <policy name="{{.Key}}" class="Machine" displayName="$(string.{{.Key}})" explainText="$(string.{{.Key}}_Help)"
            key="{{policyKey}}" valueName="{{.Key}}">
      <parentCategory ref="ControlD"/>
      <supportedOn ref="windows:SUPPORTED_Windows_10_0"/>
      <enabledValue><decimal value="1"/></enabledValue>
      <disabledValue><decimal value="0"/></disabledValue>
    </policy>
{{- else}}
    <policy name="{{.Key}}" class="Machine" displayName="$(string.{{.Key}})" explainText="$(string.{{.Key}}_Help)"
            presentation="$(presentation.{{.Key}})" key="{{policyKey}}">
      <parentCategory ref="ControlD"/>
      <supportedOn ref="windows:SUPPORTED_Windows_10_0"/>
      <elements>
{{- if .Choices}}
        <enum id="{{.Key}}" valueName="{{.Key}}" required="true">
{{- range .Choices}}
          <item displayName="$(string.{{.Name}})"><value><string>{{xml .Value}}</string></value></item>
{{- end}}
        </enum>
{{- else}}
        <text id="{{.Key}}" valueName="{{.Key}}" required="true" maxLength="{{.MaxLen}}"/>
{{- end}}
      </elements>
    </policy>
{{- end}}
{{- end}}
  </policies>
</policyDefinitions>
`

// ADMX renders the administrative template of settings.Table.
func ADMX() ([]byte, error) { return renderTable("admx", admxTemplate) }

// templateFuncs are what the ADMX and ADML templates need beyond a
// setting's fields. Keys and choice names are identifiers; the other
// texts are escaped.
var templateFuncs = template.FuncMap{
	"policyKey": func() string { return settings.PolicyKeyPath },
	"isBool":    func(s settings.Setting) bool { return s.Kind == settings.Bool },
	"xml":       xmlEscaper.Replace,
}

// xmlEscaper leaves apostrophes as they are, unlike xml.EscapeText, so the
// ADML an admin reads says "Control D's".
var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

func renderTable(name, text string) ([]byte, error) {
	tmpl := template.Must(template.New(name).Funcs(templateFuncs).Parse(text))
	var out bytes.Buffer
	if err := tmpl.Execute(&out, settings.Table); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
