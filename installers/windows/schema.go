package windows

import (
	"fmt"
	"strings"

	"github.com/ctrld-install/ctrld-install/installers/windows/msidb"
)

// standardSchemas are Windows Installer's schemas of the tables the package
// holds, in IDT notation, "*" marking key columns. They are the schemas
// msitools ships and wixl wrote (testdata/wixl-golden). The empty tables
// stay listed: that is what the wixl-built MSI did, and the standard
// actions that read them then find them. There is no _Validation table:
// only validation tools (ICEs) read it, msiexec does not, and the wixl
// build had none either.
var standardSchemas = []string{
	"AdminExecuteSequence: Action s72*, Condition S255, Sequence I2",
	"AdminUISequence: Action s72*, Condition S255, Sequence I2",
	"AdvtExecuteSequence: Action s72*, Condition S255, Sequence I2",
	"AppSearch: Property s72*, Signature_ s72*",
	"Binary: Name s72*, Data v0",
	"Component: Component s72*, ComponentId S38, Directory_ s72, Attributes i2, Condition S255, KeyPath S72",
	"CreateFolder: Directory_ s72*, Component_ s72*",
	"CustomAction: Action s72*, Type i2, Source S72, Target S255, ExtendedType I4",
	"Directory: Directory s72*, Directory_Parent S72, DefaultDir l255",
	"Error: Error i2*, Message L0",
	"Feature: Feature s38*, Feature_Parent S38, Title L64, Description L255, Display I2, Level i2, Directory_ S72, Attributes i2",
	"FeatureComponents: Feature_ s38*, Component_ s72*",
	"File: File s72*, Component_ s72, FileName l255, FileSize i4, Version S72, Language S20, Attributes I2, Sequence i4",
	"Icon: Name s72*, Data v0",
	"InstallExecuteSequence: Action s72*, Condition S255, Sequence I2",
	"InstallUISequence: Action s72*, Condition S255, Sequence I2",
	"LaunchCondition: Condition s255*, Description l255",
	"Media: DiskId i2*, LastSequence i4, DiskPrompt L64, Cabinet S255, VolumeLabel S32, Source S72",
	"MsiFileHash: File_ s72*, Options i2, HashPart1 i4, HashPart2 i4, HashPart3 i4, HashPart4 i4",
	"Property: Property s72*, Value l0",
	"RegLocator: Signature_ s72*, Root i2, Key s255, Name S255, Type I2",
	"Registry: Registry s72*, Root i2, Key l255, Name L255, Value L0, Component_ s72",
	"RemoveFile: FileKey s72*, Component_ s72, FileName L255, DirProperty s72, InstallMode i2",
	"ServiceControl: ServiceControl s72*, Name l255, Event i2, Arguments L255, Wait I2, Component_ s72",
	"ServiceInstall: ServiceInstall s72*, Name s255, DisplayName L255, ServiceType i4, StartType i4, ErrorControl i4, " +
		"LoadOrderGroup S255, Dependencies S255, StartName S255, Password S255, Arguments S255, Component_ s72, Description L255",
	"Shortcut: Shortcut s72*, Directory_ s72, Name l128, Component_ s72, Target s72, Arguments S255, Description L255, " +
		"Hotkey I2, Icon_ S72, IconIndex I2, ShowCmd I2, WkDir S72, DisplayResourceDLL S255, DisplayResourceId I2, " +
		"DescriptionResourceDLL S255, DescriptionResourceId I2",
	"Signature: Signature s72*, FileName s255, MinVersion S20, MaxVersion S20, MinSize I4, MaxSize I4, MinDate I4, MaxDate I4, Languages S255",
	"Upgrade: UpgradeCode s38*, VersionMin S20*, VersionMax S20*, Language S255*, Attributes i4*, Remove S255, ActionProperty s72",
}

// parseSchema reads one line of standardSchemas.
func parseSchema(line string) (msidb.Table, error) {
	name, cols, ok := strings.Cut(line, ": ")
	if !ok {
		return msidb.Table{}, fmt.Errorf("schema %q: no table name", line)
	}
	t := msidb.Table{Name: name}
	for _, c := range strings.Split(cols, ", ") {
		colName, typ, ok := strings.Cut(c, " ")
		if !ok {
			return t, fmt.Errorf("schema %s: column %q", name, c)
		}
		key := strings.HasSuffix(typ, "*")
		t.Columns = append(t.Columns, msidb.Column{Name: colName, Type: strings.TrimSuffix(typ, "*"), Key: key})
	}
	return t, nil
}
