package windows

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/wrapper/settings"
)

type admx struct {
	Policies []struct {
		Name      string `xml:"name,attr"`
		Key       string `xml:"key,attr"`
		ValueName string `xml:"valueName,attr"`
		Display   string `xml:"displayName,attr"`
		Explain   string `xml:"explainText,attr"`
		Present   string `xml:"presentation,attr"`
		Elements  struct {
			Text []struct {
				ValueName string `xml:"valueName,attr"`
			} `xml:"text"`
			Enum []struct {
				ValueName string   `xml:"valueName,attr"`
				Values    []string `xml:"item>value>string"`
			} `xml:"enum"`
		} `xml:"elements"`
	} `xml:"policies>policy"`
}

type adml struct {
	Strings []struct {
		ID string `xml:"id,attr"`
	} `xml:"resources>stringTable>string"`
	Presentations []struct {
		ID string `xml:"id,attr"`
	} `xml:"resources>presentationTable>presentation"`
}

func TestADMXMapsToTheWrapperSettings(t *testing.T) {
	dir := filepath.Join(testenv.RepoRoot(), "installers", "windows", "admx")
	if xmllint, err := exec.LookPath("xmllint"); err == nil {
		if out, err := exec.Command(xmllint, "--noout", filepath.Join(dir, "ControlD.admx"), filepath.Join(dir, "en-US", "ControlD.adml")).CombinedOutput(); err != nil {
			t.Fatalf("xmllint: %v\n%s", err, out)
		}
	} else {
		testenv.Unavailable(t, "xmllint not installed")
	}
	var def admx
	var res adml
	readXML(t, filepath.Join(dir, "ControlD.admx"), &def)
	readXML(t, filepath.Join(dir, "en-US", "ControlD.adml"), &res)
	ids := map[string]bool{}
	for _, s := range res.Strings {
		ids["$(string."+s.ID+")"] = true
	}
	for _, p := range res.Presentations {
		ids["$(presentation."+p.ID+")"] = true
	}

	var values []string
	for _, p := range def.Policies {
		if p.Key != settings.PolicyKeyPath {
			t.Errorf("%s writes %s, the wrapper reads %s", p.Name, p.Key, settings.PolicyKeyPath)
		}
		for _, ref := range []string{p.Display, p.Explain, p.Present} {
			if ref != "" && !ids[ref] {
				t.Errorf("%s refers to %s, missing from the ADML", p.Name, ref)
			}
		}
		if p.ValueName != "" {
			values = append(values, p.ValueName)
		}
		for _, e := range p.Elements.Text {
			values = append(values, e.ValueName)
		}
		for _, e := range p.Elements.Enum {
			values = append(values, e.ValueName)
			for _, v := range e.Values {
				if _, ok := settings.InterceptArg(v); !ok {
					t.Errorf("enum value %q is not one the wrapper accepts", v)
				}
			}
		}
	}
	var want []string
	for _, k := range settings.Keys {
		want = append(want, string(k))
	}
	sort.Strings(values)
	sort.Strings(want)
	if strings.Join(values, ",") != strings.Join(want, ",") {
		t.Errorf("policy values %v, the wrapper reads %v", values, want)
	}
}

func readXML(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
