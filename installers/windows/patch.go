package windows

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"time"
)

// patch applies what wixl drops or cannot say, with msibuild:
//   - HideTarget on the provisioning action, so its command line (which
//     carries the token) is not logged;
//   - MsiHiddenProperties, so the token property's value is not logged;
//   - the settings properties in SecureCustomProperties, so values given on
//     the command line reach the elevated server process;
//   - RemoveFile rows (wixl has no RemoveFile element) for what ctrld and
//     the wrapper create: on uninstall, nothing is left behind;
//   - summary information: title, author, template and the PackageCode.
//
// Then it pins the summary's two timestamps, which libmsi sets to the
// current time, to MTime.
func (p Package) patch(msi, packageCode string) error {
	secure := append([]string{"WIX_DOWNGRADE_DETECTED", "WIX_UPGRADE_DETECTED"}, Properties...)
	queries := []string{
		fmt.Sprintf("UPDATE CustomAction SET Type=%d WHERE Action='Provision'", ProvisionType),
		fmt.Sprintf("INSERT INTO Property (Property, Value) VALUES ('MsiHiddenProperties', '%s')", PropToken),
		fmt.Sprintf("UPDATE Property SET Value='%s' WHERE Property='SecureCustomProperties'", strings.Join(secure, ";")),
	}
	for _, r := range leftovers {
		queries = append(queries, fmt.Sprintf(
			"INSERT INTO RemoveFile (FileKey, Component_, FileName, DirProperty, InstallMode) VALUES ('%s', '%s', '%s', '%s', %d)",
			r.key, r.component, r.name, r.dir, removeOnUninstall))
	}
	for _, q := range queries {
		if err := p.run("msibuild", msi, "-q", q); err != nil {
			return err
		}
	}
	if err := p.run("msibuild", msi, "-s", "Control D (ctrld)", "Control D", "x64;1033", packageCode); err != nil {
		return err
	}
	return pinSummaryTimes(msi, p.MTime)
}

// removeOnUninstall is RemoveFile.InstallMode 2.
const removeOnUninstall = 2

// leftovers are the files ctrld and the wrapper create in the install
// folder, removed on uninstall.
var leftovers = []struct{ key, component, name, dir string }{
	{"RemoveLock", "Ctrld", ".ctrld-install.lock", "INSTALLDIR"},
	{"RemoveResult", "Ctrld", "provision_result.json", "INSTALLDIR"},
	{"RemoveConfig", "Ctrld", "ctrld.toml", "INSTALLDIR"},
}

// filetime converts to Windows FILETIME (100 ns since 1601).
func filetime(t time.Time) uint64 {
	return uint64(t.Unix()+11644473600) * 10_000_000
}

// pinSummaryTimes rewrites the summary information's creation and
// last-saved times (VT_FILETIME properties that libmsi stamps with the
// build time) to t. It looks for VT_FILETIME values near the current time
// and requires exactly two, so it can never touch anything else.
func pinSummaryTimes(msi string, t time.Time) error {
	data, err := os.ReadFile(msi)
	if err != nil {
		return err
	}
	now := filetime(time.Now())
	window := uint64(2 * time.Hour / 100)
	marker := []byte{0x40, 0, 0, 0}
	var hits []int
	for off := 0; ; {
		i := bytes.Index(data[off:], marker)
		if i < 0 || off+i+12 > len(data) {
			break
		}
		at := off + i + 4
		v := binary.LittleEndian.Uint64(data[at:])
		if v+window > now && v < now+window {
			hits = append(hits, at)
		}
		off += i + 1
	}
	if len(hits) != 2 {
		return fmt.Errorf("msi: expected 2 summary timestamps, found %d", len(hits))
	}
	for _, at := range hits {
		binary.LittleEndian.PutUint64(data[at:], filetime(t))
	}
	return os.WriteFile(msi, data, 0o644)
}
