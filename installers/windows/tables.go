package windows

import (
	"strings"

	"github.com/ctrld-install/ctrld-install/installers/windows/msidb"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/internal/settings"
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
	keyCtrld          = names.Ctrld + ".exe"
	wrapperName       = names.Wrapper + ".exe"
	componentCtrld    = "Ctrld"
	componentWrapper  = "Wrapper"
	featureMain       = "Main"
)

// Feature.Display and Feature.Level of the one feature: shown expanded,
// installed at the default install level.
const (
	featureDisplayExpanded = 2
	featureLevelDefault    = 1
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
	eventLog := `SYSTEM\CurrentControlSet\Services\EventLog\Application\` + names.Wrapper + `\`
	rows := packageRows{
		Property: []propertyRow{
			{Property: "ALLUSERS", Value: "1"}, // per-machine
			{Property: "Manufacturer", Value: "Control D"},
			{Property: "ProductLanguage", Value: "1033"},
			{Property: "ProductCode", Value: in.codes.ProductCode},
			{Property: "ProductName", Value: "Control D (ctrld)"},
			{Property: "ProductVersion", Value: in.version},
			{Property: "UpgradeCode", Value: UpgradeCode},
			// Values given on the command line reach the elevated server
			// process only if listed here; the upgrade properties must be.
			{Property: "SecureCustomProperties", Value: strings.Join(secure, ";")},
			// Kept out of the log. Wine ignores it; Windows honours it.
			{Property: "MsiHiddenProperties", Value: strings.Join(hiddenProperties, ";")},
		},
		Directory: []directoryRow{
			{Directory: "TARGETDIR", DefaultDir: "SourceDir"},
			{Directory: in.programFiles, Parent: "TARGETDIR", DefaultDir: "."},
			{Directory: dirInstall, Parent: in.programFiles, DefaultDir: names.InstallFolder},
		},
		Component: []componentRow{
			{Component: componentCtrld, ComponentID: in.codes.Ctrld, Directory: dirInstall, Attributes: in.componentBits, KeyPath: keyCtrld},
			{Component: componentWrapper, ComponentID: in.codes.Wrapper, Directory: dirInstall, Attributes: in.componentBits, KeyPath: keyWrapper},
		},
		Feature:           []featureRow{{Feature: featureMain, Display: featureDisplayExpanded, Level: featureLevelDefault}},
		FeatureComponents: []featureComponentRow{{Feature: featureMain, Component: componentCtrld}, {Feature: featureMain, Component: componentWrapper}},
		Media:             []mediaRow{{DiskID: 1, LastSequence: len(in.files), Cabinet: "#" + cabinetName}},
		CustomAction: []customActionRow{
			{Action: "Provision", Type: ProvisionType, Source: keyWrapper, Target: provisionCommand},
			// On a real removal, not the removal half of an upgrade, before
			// the binaries go: ctrld removes its service, the wrapper its
			// record folder. The MSI installs nothing in that folder, so a
			// rollback cannot take the record of why it rolled back.
			{Action: "UninstallService", Type: UninstallType, Source: keyWrapper, Target: "uninstall"},
			{Action: hideARPAction, Type: CASetProperty, Source: "ARPSYSTEMCOMPONENT", Target: "1"},
		},
		InstallExecuteSequence: append(sequenceRows(installExecuteSequence),
			sequenceRow{Action: "UninstallService", Condition: `REMOVE="ALL" AND NOT UPGRADINGPRODUCTCODE`, Sequence: 3490}, // before RemoveFiles
			sequenceRow{Action: "Provision", Condition: "NOT Installed AND NOT REMOVE", Sequence: 4010},                     // after InstallFiles
			sequenceRow{Action: hideARPAction, Condition: hideARPCondition, Sequence: 1001},                                 // before RegisterProduct
		),
		InstallUISequence:    sequenceRows(installUISequence),
		AdminExecuteSequence: sequenceRows(adminExecuteSequence),
		AdminUISequence:      sequenceRows(adminUISequence),
		AdvtExecuteSequence:  sequenceRows(advtExecuteSequence),
		Upgrade: []upgradeRow{
			{UpgradeCode: UpgradeCode, VersionMax: in.version, Attributes: upgradeMigrateFeatures, ActionProperty: propUpgradeDetected},
			{UpgradeCode: UpgradeCode, VersionMin: in.version, Attributes: upgradeOnlyDetect, ActionProperty: propDowngradeDetected},
		},
		LaunchCondition: []launchConditionRow{{Condition: "NOT " + propDowngradeDetected, Description: "A newer version of Control D is already installed."}},
		RemoveFile:      removeFileRows(),
		// The wrapper's event source. The keys are the ones wixl
		// generated, kept so that the tables stay those of the wixl build.
		Registry: []registryRow{
			{Registry: "reg044E3D15C8DEA287D80C67FF5DE1ADEF", Root: registryHKLM, Key: eventLog, Name: "EventMessageFile", Value: "[" + in.systemFolder + "]EventCreate.exe", Component: componentWrapper},
			{Registry: "regA9AE6C9CB13E53066B030D929A604017", Root: registryHKLM, Key: eventLog, Name: "TypesSupported", Value: "#7", Component: componentWrapper},
		},
	}
	addArgumentGuards(&rows)
	for i, f := range in.files {
		rows.File = append(rows.File, fileRow{File: f.key, Component: f.component, FileName: f.name, FileSize: int(f.size), Attributes: fileVital, Sequence: i + 1})
		// The Go binaries carry no version resource: the hash lets a
		// repair or an upgrade skip identical files.
		rows.MsiFileHash = append(rows.MsiFileHash, fileHashRow{File: f.key, HashPart1: f.md5[0], HashPart2: f.md5[1], HashPart3: f.md5[2], HashPart4: f.md5[3]})
	}
	schemas := make([]msidb.Table, len(standardSchemas))
	for i, line := range standardSchemas {
		t, err := parseSchema(line)
		if err != nil {
			return nil, err
		}
		schemas[i] = t
	}
	return rows.layOut(schemas)
}

func sequenceRows(actions []sequenced) []sequenceRow {
	rows := make([]sequenceRow, len(actions))
	for i, a := range actions {
		rows[i] = sequenceRow{Action: a.action, Sequence: a.number}
	}
	return rows
}
