package settings

// MSIOnly is a public property of the MSI that is not a setting: it
// changes how Windows Installer registers the product, not ctrld, so no
// other source has it.
type MSIOnly struct {
	Property string
	// Values is the value column of the Windows guide's table.
	Values string
}

// HideARPProperty keeps the product out of Add/Remove Programs.
const HideARPProperty = "HIDE_ARP"

// MSIOnlyProperties are the MSI's own public properties, in the order
// the Windows guide lists them after the settings.
var MSIOnlyProperties = []MSIOnly{
	{Property: HideARPProperty, Values: "optional; `1` keeps Control D out of Add/Remove Programs (Settings → Apps)"},
}
