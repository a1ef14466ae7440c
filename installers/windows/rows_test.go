package windows

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/installers/windows/msidb"
)

func schemaOf(t *testing.T, table string) msidb.Table {
	t.Helper()
	for _, line := range standardSchemas {
		if strings.HasPrefix(line, table+": ") {
			s, err := parseSchema(line)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
	}
	t.Fatalf("no schema for %s", table)
	return msidb.Table{}
}

// A row's cells land in its columns by name: each field in its column's
// place, an empty string and a nil *int as nulls.
func TestRowsAreLaidOutByColumnName(t *testing.T) {
	extended := 7
	rows := packageRows{
		CustomAction: []customActionRow{
			{Action: "A", Type: 51, Target: "1"},
			{Action: "B", Type: 18, Source: "f", ExtendedType: &extended},
		},
		Feature: []featureRow{{Feature: "Main", Display: 2, Level: 1}},
	}
	tables, err := rows.layOut([]msidb.Table{schemaOf(t, "CustomAction"), schemaOf(t, "Feature"), schemaOf(t, "Media")})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]msidb.Row{
		"CustomAction": {{"A", 51, "", "1", nil}, {"B", 18, "f", "", 7}},
		"Feature":      {{"Main", "", "", "", 2, 1, "", 0}},
	}
	for _, tb := range tables {
		if len(tb.Rows) != len(want[tb.Name]) {
			t.Fatalf("%s: rows %v, want %v", tb.Name, tb.Rows, want[tb.Name])
		}
		for i, row := range tb.Rows {
			for j, cell := range row {
				if cell != want[tb.Name][i][j] {
					t.Errorf("%s row %d column %s: %#v, want %#v", tb.Name, i, tb.Columns[j].Name, cell, want[tb.Name][i][j])
				}
			}
		}
	}
}

// A row type whose fields are not its table's columns, in the schema's
// order, fails the build; so do rows for a table with no schema.
func TestRowsThatDoNotMatchTheSchemaAreRefused(t *testing.T) {
	type swapped struct {
		Value    string `msi:"Value"`
		Property string `msi:"Property"`
	}
	if _, err := layOutRow(schemaOf(t, "Property"), reflect.ValueOf(swapped{"1", "ALLUSERS"})); err == nil || !strings.Contains(err.Error(), `"Value"`) {
		t.Errorf("swapped columns: %v", err)
	}
	type short struct {
		Property string `msi:"Property"`
	}
	if _, err := layOutRow(schemaOf(t, "Property"), reflect.ValueOf(short{"ALLUSERS"})); err == nil {
		t.Error("a row with a column missing was laid out")
	}
	rows := packageRows{Registry: []registryRow{{Registry: "r"}}}
	if _, err := rows.layOut([]msidb.Table{schemaOf(t, "Property")}); err == nil || !strings.Contains(err.Error(), "Registry") {
		t.Errorf("rows for a table without a schema: %v", err)
	}
}

// Every row type of the package matches its schema: the build lays
// out each table.
func TestEveryRowTypeMatchesItsSchema(t *testing.T) {
	for _, arch := range Archs {
		plat, _ := platformOf(arch)
		files := []packageFile{{key: keyCtrld, component: componentCtrld, name: keyCtrld, size: 1}, {key: keyWrapper, component: componentWrapper, name: wrapperName, size: 2}}
		if _, err := packageTables(tableInputs{platform: plat, version: "1.2.3", codes: msiCodes{}, files: files}); err != nil {
			t.Fatalf("%s: %v", arch, err)
		}
	}
}
