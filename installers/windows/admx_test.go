//go:build !windows

// xmllint checks the rendered ADMX and ADML first; macOS and Linux have it.

package windows

import (
	"bytes"
	"encoding/xml"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

type admx struct {
	Categories []struct {
		Display string `xml:"displayName,attr"`
	} `xml:"categories>category"`
	Policies []admxPolicy `xml:"policies>policy"`
}

type admxPolicy struct {
	Name      string `xml:"name,attr"`
	Class     string `xml:"class,attr"`
	Key       string `xml:"key,attr"`
	ValueName string `xml:"valueName,attr"`
	Display   string `xml:"displayName,attr"`
	Explain   string `xml:"explainText,attr"`
	Present   string `xml:"presentation,attr"`
	Enabled   *struct {
		Decimal struct {
			Value string `xml:"value,attr"`
		} `xml:"decimal"`
	} `xml:"enabledValue"`
	Disabled *struct {
		Decimal struct {
			Value string `xml:"value,attr"`
		} `xml:"decimal"`
	} `xml:"disabledValue"`
	Elements struct {
		Text []struct {
			ID        string `xml:"id,attr"`
			ValueName string `xml:"valueName,attr"`
			MaxLength int    `xml:"maxLength,attr"`
		} `xml:"text"`
		Enum []struct {
			ID        string `xml:"id,attr"`
			ValueName string `xml:"valueName,attr"`
			Items     []struct {
				Display string `xml:"displayName,attr"`
				Value   string `xml:"value>string"`
			} `xml:"item"`
		} `xml:"enum"`
	} `xml:"elements"`
}

type adml struct {
	Strings []struct {
		ID   string `xml:"id,attr"`
		Text string `xml:",chardata"`
	} `xml:"resources>stringTable>string"`
	Presentations []struct {
		ID    string `xml:"id,attr"`
		RefID []struct {
			ID string `xml:"refId,attr"`
		} `xml:",any"`
	} `xml:"resources>presentationTable>presentation"`
}

// TestADMXMapsToTheWrapperSettings holds the ADMX and its ADML, as they
// are rendered, to the settings table: one policy a setting, named after
// it, writing its key under the policy key the wrapper reads, of the
// setting's kind, with the table's title and explanation, and nothing
// more.
func TestADMXMapsToTheWrapperSettings(t *testing.T) {
	var def admx
	var res adml
	readXML(t, "ADMX", ADMX, &def)
	readXML(t, "ADML", ADML, &res)
	text, unused := map[string]string{}, map[string]bool{}
	for _, s := range res.Strings {
		text["$(string."+s.ID+")"] = strings.TrimSpace(s.Text)
		unused["$(string."+s.ID+")"] = true
	}
	presented := map[string][]string{}
	for _, p := range res.Presentations {
		for _, r := range p.RefID {
			presented["$(presentation."+p.ID+")"] = append(presented["$(presentation."+p.ID+")"], r.ID)
		}
		unused["$(presentation."+p.ID+")"] = true
	}
	use := func(ref string) {
		delete(unused, ref)
	}
	for _, c := range def.Categories {
		use(c.Display)
	}

	var names []string
	for _, p := range def.Policies {
		names = append(names, p.Name)
		st, ok := settings.Lookup(settings.Key(p.Name))
		if !ok {
			t.Errorf("policy %s is no setting of the table", p.Name)
			continue
		}
		if p.Key != settings.PolicyKeyPath || p.Class != "Machine" {
			t.Errorf("%s writes %s (%s), the wrapper reads the machine's %s", p.Name, p.Key, p.Class, settings.PolicyKeyPath)
		}
		if text[p.Display] != st.Doc.Title || text[p.Explain] != st.Doc.Help {
			t.Errorf("%s: the ADML says %q, %q; the table %q, %q", p.Name, text[p.Display], text[p.Explain], st.Doc.Title, st.Doc.Help)
		}
		use(p.Display)
		use(p.Explain)
		use(p.Present)
		for _, e := range p.Elements.Enum {
			for _, item := range e.Items {
				use(item.Display)
			}
		}
		if problem := policyKind(p, st, text, presented[p.Present]); problem != "" {
			t.Errorf("%s: %s", p.Name, problem)
		}
	}
	var want []string
	for _, k := range settings.Keys {
		want = append(want, string(k))
	}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Errorf("policies %v, the table's settings %v", names, want)
	}
	for ref := range unused {
		t.Errorf("the ADML's %s is used by no policy", ref)
	}
}

// policyKind says how p fails to have the kind of st, or "": a Bool is
// the policy's own value, 1 or 0; a Text is one text box of the
// setting's length or one list of its choices, in order, shown as they
// are spelled.
func policyKind(p admxPolicy, st settings.Setting, text map[string]string, presented []string) string {
	key := string(st.Key)
	texts, enums := p.Elements.Text, p.Elements.Enum
	switch {
	case st.Kind == settings.Bool:
		if p.ValueName != key || p.Enabled == nil || p.Enabled.Decimal.Value != "1" || p.Disabled == nil || p.Disabled.Decimal.Value != "0" || len(texts)+len(enums) != 0 || p.Present != "" {
			return "a boolean setting must be the policy's own value, 1 when enabled, 0 when disabled"
		}
		return ""
	case p.ValueName != "" || p.Enabled != nil || p.Disabled != nil:
		return "a text setting must be the value of its one element"
	case len(st.Choices) > 0:
		if len(enums) != 1 || len(texts) != 0 || enums[0].ValueName != key {
			return "an enumerated setting must be one enum element writing " + key
		}
		var values, shown []string
		for _, item := range enums[0].Items {
			values = append(values, item.Value)
			shown = append(shown, text[item.Display])
		}
		if want := strings.Join(st.ChoiceValues(), ","); strings.Join(values, ",") != want || strings.Join(shown, ",") != want {
			return "the list gives " + strings.Join(values, ",") + " shown as " + strings.Join(shown, ",") + ", the table " + want
		}
		if strings.Join(presented, ",") != enums[0].ID {
			return "its presentation does not show the list"
		}
		return ""
	}
	if len(texts) != 1 || len(enums) != 0 || texts[0].ValueName != key || texts[0].MaxLength != st.MaxLen {
		return "a text setting must be one text element writing " + key + " of at most " + strconv.Itoa(st.MaxLen) + " characters"
	}
	if strings.Join(presented, ",") != texts[0].ID {
		return "its presentation does not show the text box"
	}
	return ""
}

// readXML renders a file, has xmllint check it and decodes it into v.
func readXML(t *testing.T, name string, render func() ([]byte, error), v any) {
	t.Helper()
	data, err := render()
	if err != nil {
		t.Fatal(err)
	}
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		testenv.Unavailable(t, "xmllint not installed")
	}
	lint := exec.Command(xmllint, "--noout", "-")
	lint.Stdin = bytes.NewReader(data)
	if out, err := lint.CombinedOutput(); err != nil {
		t.Fatalf("xmllint of the %s: %v\n%s", name, err, out)
	}
	if err := xml.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}
