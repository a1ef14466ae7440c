package windows

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ctrld-install/ctrld-install/contract"
	"github.com/ctrld-install/ctrld-install/installers/windows/msidb"
	"github.com/ctrld-install/ctrld-install/wrapper/settings"
)

// UpgradeCode identifies the product line forever: every ctrld MSI shares
// it, so a new version finds and removes the old one.
const UpgradeCode = "{6A5C1E7B-3F0D-4C29-9B8E-2D7F41C0A9E3}"

// Properties are the public properties an admin sets on the msiexec
// command line, one for each setting; hiddenProperties are those kept
// out of the log, the secret ones.
var Properties, hiddenProperties = settingProperties()

func settingProperties() (all, hidden []string) {
	for _, st := range settings.Table {
		all = append(all, st.MSIProperty)
		if st.Secret {
			hidden = append(hidden, st.MSIProperty)
		}
	}
	return all, hidden
}

// HIDE_ARP=1 keeps the product out of Add/Remove Programs: the HideARP
// action then sets ARPSYSTEMCOMPONENT, which RegisterProduct writes as
// SystemComponent=1 in the product's Uninstall key.
const (
	PropHideARP      = settings.HideARPProperty
	hideARPAction    = "HideARP"
	hideARPCondition = PropHideARP + `="1"`
	// CASetProperty is custom action type 51: it sets the property named
	// by Source to the formatted Target.
	CASetProperty = 0x33
)

// Custom action type bits (CustomAction.Type).
const (
	CATypeExeFromFile = 0x12   // 18: an EXE that the package installs
	CAContinue        = 0x40   // ignore the exit code
	CAInScript        = 0x400  // deferred: runs in the install script
	CANoImpersonate   = 0x800  // runs as LocalSystem
	CAHideTarget      = 0x2000 // the command line is kept out of the log
)

// ProvisionType is the provisioning action's type: deferred, so that it
// runs inside the transaction after InstallFiles and its failure rolls the
// install back (its exit code is checked); no-impersonate, to run as
// LocalSystem; HideTarget, because its command line carries the token.
const ProvisionType = CATypeExeFromFile | CAInScript | CANoImpersonate | CAHideTarget

// UninstallType is the uninstall action's: the same, but its exit code
// is ignored (a removal must not fail on a service already gone) and its
// command line holds no secret.
const UninstallType = CATypeExeFromFile | CAContinue | CAInScript | CANoImpersonate

// Upgrade.Attributes and the properties FindRelatedProducts sets; the
// names are WiX's MajorUpgrade convention, kept from the wixl build.
const (
	upgradeMigrateFeatures = 0x001
	upgradeOnlyDetect      = 0x002
	propUpgradeDetected    = "WIX_UPGRADE_DETECTED"
	propDowngradeDetected  = "WIX_DOWNGRADE_DETECTED"
)

const (
	fileVital         = 0x200 // File.Attributes: a failure to install it fails the install
	removeOnUninstall = 2     // RemoveFile.InstallMode
	registryHKLM      = 2     // Registry.Root
	cabinetName       = "ctrld.cab"
	dirInstall        = "INSTALLDIR"
	keyCtrld          = contract.Ctrld + ".exe"
	wrapperName       = contract.Wrapper + ".exe"
	componentCtrld    = "Ctrld"
	componentWrapper  = "Wrapper"
)

// keyWrapper is the wrapper's File key, an identifier: no hyphen.
var keyWrapper = identifier(wrapperName)

// provisionCommand is the Provision action's command line: start, and
// each setting's flag given its property. The deferred action's Target is
// formatted when the script is written, so the values given to msiexec
// reach it.
var provisionCommand = provisionCommandLine()

func provisionCommandLine() string {
	args := []string{"start"}
	for _, st := range settings.Table {
		value := `"[` + st.MSIProperty + `]"`
		if st.Kind == settings.Bool {
			// A boolean flag takes a value only after "=".
			args = append(args, "--"+st.Flag+"="+value)
			continue
		}
		args = append(args, "--"+st.Flag, value)
	}
	return strings.Join(args, " ")
}

// Standard actions and their numbers in Microsoft's suggested sequences.
var (
	installExecuteSequence = []sequenced{
		{"FindRelatedProducts", 25}, {"LaunchConditions", 100}, {"ValidateProductID", 700},
		{"CostInitialize", 800}, {"FileCost", 900}, {"CostFinalize", 1000}, {"MigrateFeatureStates", 1200},
		// Right after InstallValidate: the old version goes completely
		// before the new one is installed.
		{"InstallValidate", 1400}, {"RemoveExistingProducts", 1401},
		{"InstallInitialize", 1500}, {"ProcessComponents", 1600}, {"UnpublishFeatures", 1800},
		{"RemoveRegistryValues", 2600}, {"RemoveFiles", 3500}, {"InstallFiles", 4000},
		{"WriteRegistryValues", 5000}, {"RegisterUser", 6000}, {"RegisterProduct", 6100},
		{"PublishFeatures", 6300}, {"PublishProduct", 6400}, {"InstallFinalize", 6600},
	}
	installUISequence = []sequenced{
		{"FindRelatedProducts", 25}, {"LaunchConditions", 100}, {"ValidateProductID", 700},
		{"CostInitialize", 800}, {"FileCost", 900}, {"CostFinalize", 1000}, {"MigrateFeatureStates", 1200},
		{"ExecuteAction", 1300},
	}
	adminExecuteSequence = []sequenced{
		{"CostInitialize", 800}, {"FileCost", 900}, {"CostFinalize", 1000}, {"InstallValidate", 1400},
		{"InstallInitialize", 1500}, {"InstallAdminPackage", 3900}, {"InstallFiles", 4000}, {"InstallFinalize", 6600},
	}
	adminUISequence = []sequenced{
		{"CostInitialize", 800}, {"FileCost", 900}, {"CostFinalize", 1000}, {"ExecuteAction", 1300},
	}
	advtExecuteSequence = []sequenced{
		{"CostInitialize", 800}, {"CostFinalize", 1000}, {"InstallValidate", 1400}, {"InstallInitialize", 1500},
		{"PublishFeatures", 6300}, {"PublishProduct", 6400}, {"InstallFinalize", 6600},
	}
)

type sequenced struct {
	action string
	number int
}

// packageFile is one payload file as the tables see it.
type packageFile struct {
	key, component, name string
	size                 int64
	md5                  [4]int // MsiFileHash parts
}

// tableInputs are the values the tables are made of.
type tableInputs struct {
	platform
	version string
	codes   msiCodes
	files   []packageFile // in cabinet order
}

// packageTables are ctrld's tables: the rows as data, around the inputs.
func packageTables(in tableInputs) ([]msidb.Table, error) {
	secure := append(append([]string{propDowngradeDetected, propUpgradeDetected}, Properties...), PropHideARP)
	eventLog := `SYSTEM\CurrentControlSet\Services\EventLog\Application\` + contract.Wrapper + `\`
	rows := map[string][]msidb.Row{
		"Property": {
			{"ALLUSERS", "1"}, // per-machine
			{"Manufacturer", "Control D"},
			{"ProductLanguage", "1033"},
			{"ProductCode", in.codes.ProductCode},
			{"ProductName", "Control D (ctrld)"},
			{"ProductVersion", in.version},
			{"UpgradeCode", UpgradeCode},
			// Values given on the command line reach the elevated server
			// process only if listed here; the upgrade properties must be.
			{"SecureCustomProperties", strings.Join(secure, ";")},
			// Kept out of the log. Wine ignores it; Windows honours it.
			{"MsiHiddenProperties", strings.Join(hiddenProperties, ";")},
		},
		"Directory": {
			{"TARGETDIR", "", "SourceDir"},
			{in.programFiles, "TARGETDIR", "."},
			{dirInstall, in.programFiles, contract.InstallFolder},
		},
		"Component": {
			{componentCtrld, in.codes.Ctrld, dirInstall, in.componentBits, "", keyCtrld},
			{componentWrapper, in.codes.Wrapper, dirInstall, in.componentBits, "", keyWrapper},
		},
		"Feature":           {{"Main", "", "", "", 2, 1, "", 0}},
		"FeatureComponents": {{"Main", componentCtrld}, {"Main", componentWrapper}},
		"Media":             {{1, len(in.files), "", "#" + cabinetName, "", ""}},
		"CustomAction": {
			{"Provision", ProvisionType, keyWrapper, provisionCommand, nil},
			// On a real removal, not the removal half of an upgrade, before
			// the binaries go: ctrld removes its service, the wrapper its
			// record under ProgramData. The MSI does not own that folder,
			// so a rollback cannot take the record of why it rolled back.
			{"UninstallService", UninstallType, keyWrapper, "uninstall", nil},
			{hideARPAction, CASetProperty, "ARPSYSTEMCOMPONENT", "1", nil},
		},
		"InstallExecuteSequence": append(sequenceRows(installExecuteSequence),
			msidb.Row{"UninstallService", `REMOVE="ALL" AND NOT UPGRADINGPRODUCTCODE`, 3490}, // before RemoveFiles
			msidb.Row{"Provision", "NOT Installed AND NOT REMOVE", 4010},                     // after InstallFiles
			msidb.Row{hideARPAction, hideARPCondition, 1001},                                 // before RegisterProduct
		),
		"InstallUISequence":    sequenceRows(installUISequence),
		"AdminExecuteSequence": sequenceRows(adminExecuteSequence),
		"AdminUISequence":      sequenceRows(adminUISequence),
		"AdvtExecuteSequence":  sequenceRows(advtExecuteSequence),
		"Upgrade": {
			{UpgradeCode, "", in.version, "", upgradeMigrateFeatures, "", propUpgradeDetected},
			{UpgradeCode, in.version, "", "", upgradeOnlyDetect, "", propDowngradeDetected},
		},
		"LaunchCondition": {{"NOT " + propDowngradeDetected, "A newer version of Control D is already installed."}},
		"RemoveFile":      removeFileRows(),
		// The wrapper's event source. The keys are the ones wixl
		// generated, kept so that the tables stay those of the wixl build.
		"Registry": {
			{"reg044E3D15C8DEA287D80C67FF5DE1ADEF", registryHKLM, eventLog, "EventMessageFile", "[" + in.systemFolder + "]EventCreate.exe", componentWrapper},
			{"regA9AE6C9CB13E53066B030D929A604017", registryHKLM, eventLog, "TypesSupported", "#7", componentWrapper},
		},
	}
	addArgumentGuards(rows)
	for i, f := range in.files {
		rows["File"] = append(rows["File"], msidb.Row{f.key, f.component, f.name, int(f.size), "", "", fileVital, i + 1})
		// The Go binaries carry no version resource: the hash lets a
		// repair or an upgrade skip identical files.
		rows["MsiFileHash"] = append(rows["MsiFileHash"], msidb.Row{f.key, 0, f.md5[0], f.md5[1], f.md5[2], f.md5[3]})
	}
	var tables []msidb.Table
	for _, line := range standardSchemas {
		t, err := parseSchema(line)
		if err != nil {
			return nil, err
		}
		t.Rows = rows[t.Name]
		delete(rows, t.Name)
		tables = append(tables, t)
	}
	if len(rows) > 0 {
		var names []string
		for n := range rows {
			names = append(names, n)
		}
		sort.Strings(names)
		return nil, fmt.Errorf("msi: rows for tables without a schema: %s", strings.Join(names, ", "))
	}
	return tables, nil
}

func sequenceRows(actions []sequenced) []msidb.Row {
	rows := make([]msidb.Row, len(actions))
	for i, a := range actions {
		rows[i] = msidb.Row{a.action, "", a.number}
	}
	return rows
}
