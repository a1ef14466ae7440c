package windows

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/ctrld-install/ctrld-install/installers/windows/msidb"
)

// The package's rows, one type per table, each field named after its
// column: the msi tag is the column's name in standardSchemas, and the
// fields come in the schema's order, which layOut checks. An empty
// string is a null string, as in every MSI; a nil *int a null integer.

type propertyRow struct {
	Property string `msi:"Property"`
	Value    string `msi:"Value"`
}

type directoryRow struct {
	Directory  string `msi:"Directory"`
	Parent     string `msi:"Directory_Parent"`
	DefaultDir string `msi:"DefaultDir"`
}

type componentRow struct {
	Component   string `msi:"Component"`
	ComponentID string `msi:"ComponentId"`
	Directory   string `msi:"Directory_"`
	Attributes  int    `msi:"Attributes"`
	Condition   string `msi:"Condition"`
	KeyPath     string `msi:"KeyPath"`
}

type featureRow struct {
	Feature     string `msi:"Feature"`
	Parent      string `msi:"Feature_Parent"`
	Title       string `msi:"Title"`
	Description string `msi:"Description"`
	Display     int    `msi:"Display"`
	Level       int    `msi:"Level"`
	Directory   string `msi:"Directory_"`
	Attributes  int    `msi:"Attributes"`
}

type featureComponentRow struct {
	Feature   string `msi:"Feature_"`
	Component string `msi:"Component_"`
}

type mediaRow struct {
	DiskID       int    `msi:"DiskId"`
	LastSequence int    `msi:"LastSequence"`
	DiskPrompt   string `msi:"DiskPrompt"`
	Cabinet      string `msi:"Cabinet"`
	VolumeLabel  string `msi:"VolumeLabel"`
	Source       string `msi:"Source"`
}

type customActionRow struct {
	Action       string `msi:"Action"`
	Type         int    `msi:"Type"`
	Source       string `msi:"Source"`
	Target       string `msi:"Target"`
	ExtendedType *int   `msi:"ExtendedType"`
}

// sequenceRow is a row of any of the five sequence tables.
type sequenceRow struct {
	Action    string `msi:"Action"`
	Condition string `msi:"Condition"`
	Sequence  int    `msi:"Sequence"`
}

type upgradeRow struct {
	UpgradeCode    string `msi:"UpgradeCode"`
	VersionMin     string `msi:"VersionMin"`
	VersionMax     string `msi:"VersionMax"`
	Language       string `msi:"Language"`
	Attributes     int    `msi:"Attributes"`
	Remove         string `msi:"Remove"`
	ActionProperty string `msi:"ActionProperty"`
}

type launchConditionRow struct {
	Condition   string `msi:"Condition"`
	Description string `msi:"Description"`
}

type removeFileRow struct {
	FileKey     string `msi:"FileKey"`
	Component   string `msi:"Component_"`
	FileName    string `msi:"FileName"`
	DirProperty string `msi:"DirProperty"`
	InstallMode int    `msi:"InstallMode"`
}

type registryRow struct {
	Registry  string `msi:"Registry"`
	Root      int    `msi:"Root"`
	Key       string `msi:"Key"`
	Name      string `msi:"Name"`
	Value     string `msi:"Value"`
	Component string `msi:"Component_"`
}

type fileRow struct {
	File       string `msi:"File"`
	Component  string `msi:"Component_"`
	FileName   string `msi:"FileName"`
	FileSize   int    `msi:"FileSize"`
	Version    string `msi:"Version"`
	Language   string `msi:"Language"`
	Attributes int    `msi:"Attributes"`
	Sequence   int    `msi:"Sequence"`
}

type fileHashRow struct {
	File      string `msi:"File_"`
	Options   int    `msi:"Options"`
	HashPart1 int    `msi:"HashPart1"`
	HashPart2 int    `msi:"HashPart2"`
	HashPart3 int    `msi:"HashPart3"`
	HashPart4 int    `msi:"HashPart4"`
}

// packageRows are the package's rows, each field named after its table.
// A table of standardSchemas with no field here stays empty.
type packageRows struct {
	Property               []propertyRow
	Directory              []directoryRow
	Component              []componentRow
	Feature                []featureRow
	FeatureComponents      []featureComponentRow
	Media                  []mediaRow
	CustomAction           []customActionRow
	InstallExecuteSequence []sequenceRow
	InstallUISequence      []sequenceRow
	AdminExecuteSequence   []sequenceRow
	AdminUISequence        []sequenceRow
	AdvtExecuteSequence    []sequenceRow
	Upgrade                []upgradeRow
	LaunchCondition        []launchConditionRow
	RemoveFile             []removeFileRow
	Registry               []registryRow
	File                   []fileRow
	MsiFileHash            []fileHashRow
}

// layOut fills each schema's table with its rows, every cell in its
// column's place. A table with rows but no schema, or a row type whose
// fields are not the schema's columns in order, is an error.
func (r packageRows) layOut(schemas []msidb.Table) ([]msidb.Table, error) {
	v := reflect.ValueOf(r)
	unplaced := map[string]bool{}
	for i := range v.NumField() {
		if v.Field(i).Len() > 0 {
			unplaced[v.Type().Field(i).Name] = true
		}
	}
	tables := make([]msidb.Table, len(schemas))
	for i, t := range schemas {
		delete(unplaced, t.Name)
		if rows := v.FieldByName(t.Name); rows.IsValid() {
			for j := range rows.Len() {
				row, err := layOutRow(t, rows.Index(j))
				if err != nil {
					return nil, err
				}
				t.Rows = append(t.Rows, row)
			}
		}
		tables[i] = t
	}
	if len(unplaced) > 0 {
		var names []string
		for n := range unplaced {
			names = append(names, n)
		}
		sort.Strings(names)
		return nil, fmt.Errorf("msi: rows for tables without a schema: %s", strings.Join(names, ", "))
	}
	return tables, nil
}

// layOutRow puts each field of one typed row in its column's place.
func layOutRow(t msidb.Table, row reflect.Value) (msidb.Row, error) {
	fields := row.Type()
	if fields.NumField() != len(t.Columns) {
		return nil, fmt.Errorf("msi: table %s: %s has %d fields for %d columns", t.Name, fields.Name(), fields.NumField(), len(t.Columns))
	}
	out := make(msidb.Row, len(t.Columns))
	for i, c := range t.Columns {
		if tag := fields.Field(i).Tag.Get("msi"); tag != c.Name {
			return nil, fmt.Errorf("msi: table %s: field %d of %s is column %q, the schema's is %s", t.Name, i+1, fields.Name(), tag, c.Name)
		}
		out[i] = cellOf(row.Field(i))
	}
	return out, nil
}

// cellOf is a field's cell: a nil pointer is a null.
func cellOf(field reflect.Value) any {
	if field.Kind() != reflect.Pointer {
		return field.Interface()
	}
	if field.IsNil() {
		return nil
	}
	return field.Elem().Interface()
}
