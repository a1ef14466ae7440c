// Package names holds the names the wrapper, the installers, their
// package scripts and the tests share: file names, default paths, binary
// and service names. A rename happens here once; everything else derives
// from these values, so a rename cannot break one side silently.
//
// It sits under the module's internal/, not under wrapper/, because the
// installers and the release pipeline import it too; it imports nothing,
// so any of them can.
package names

// Binary names. ctrld releases ship the client as ctrld or ctrld-client;
// the service takes the binary's name, so nothing may hard-code one.
const (
	Wrapper = "ctrld-install"
	Ctrld   = "ctrld"
	// CtrldClient is the other name releases use for the ctrld binary.
	CtrldClient = "ctrld-client"
)

// CtrldNames lists the ctrld binary's names, in the order the wrapper
// looks for them beside itself.
var CtrldNames = []string{Ctrld, CtrldClient}

// Files in the ctrld home dir. On Windows the record, the evidence copy
// and msiexec's log live in the record folder instead (see RecordFolder).
const (
	// ResultFile is ctrld's own provision_result.json.
	ResultFile = "provision_result.json"
	// LastResultFile is the wrapper's record of the last line.
	LastResultFile = "ctrld-install-last-result"
	// PendingResultFile is the record being written, moved over
	// LastResultFile once flushed; a killed run may leave it behind, and
	// where the OS swaps names it holds the previous record line until
	// the next run.
	PendingResultFile = "." + LastResultFile + ".tmp"
	// LockFile is the wrapper's lock; it stays behind, empty.
	LockFile = ".ctrld-install.lock"
	// TreeFile names the tree of the ctrld a run started (group, leader
	// start time, boot, binary), while it runs; a killed run leaves it
	// behind.
	TreeFile = ".ctrld-install.tree"
	// SettingsFile is the Linux settings file's name.
	SettingsFile = "ctrld-install.conf"
	// EvidenceFile is the wrapper's bounded copy of the result file's
	// evidence, beside the record, for `ctrld-install explain`.
	EvidenceFile = "ctrld-install-evidence.json"
	// MsiexecLogFile is msiexec's verbose log, which install-msi keeps
	// beside the record on Windows.
	MsiexecLogFile = "ctrld-install-msiexec.log"
	// CtrldConfig is the configuration ctrld writes beside its result.
	CtrldConfig = "ctrld.toml"
)

// Unix places (macOS and Linux).
const (
	// Home is ctrld's home dir on macOS and Linux.
	Home = "/etc/controld"
	// LinuxBinDir is where the deb and rpm install both binaries.
	LinuxBinDir = "/usr/bin"
	// MacBinDir is where the pkg installs both binaries: a folder only
	// root can write, all the way up.
	MacBinDir = "/Library/ControlD"
	// MacLegacyBinDir is where releases before MacBinDir put them.
	MacLegacyBinDir = "/usr/local/bin"
	// LaunchDaemonsDir holds ctrld's launchd plist, named after the binary.
	LaunchDaemonsDir = "/Library/LaunchDaemons"
	// ManagedPrefsDomain is the managed-preferences domain of the profile.
	ManagedPrefsDomain = "com.controld.ctrld"
	// ManagedPrefs is where a configuration profile for that domain lands.
	ManagedPrefs = "/Library/Managed Preferences/" + ManagedPrefsDomain + ".plist"
)

// LinuxSettings is the Linux settings file's full path.
const LinuxSettings = Home + "/" + SettingsFile

// Windows places, as folder names under the OS's known folders.
const (
	// InstallFolder is the MSI's folder under Program Files; it is ctrld's
	// home dir on Windows.
	InstallFolder = "ControlD"
	// RecordFolder, in InstallFolder under the native Program Files (the
	// 64-bit one on 64-bit Windows, whichever package installed),
	// holds the record, the evidence copy and msiexec's log: no standard
	// user can create anything under Program Files, and the MSI installs
	// nothing in it, so a rollback leaves the record of why it rolled
	// back.
	RecordFolder = "records"
	// DefaultProgramFiles is the native Program Files when the OS does not
	// name it.
	DefaultProgramFiles = `C:\Program Files`
)

// WrapperFiles are the files the wrapper itself writes: what package
// removal deletes by name.
var WrapperFiles = []string{LastResultFile, PendingResultFile, EvidenceFile, LockFile, TreeFile}

// CtrldFiles are the files ctrld itself writes in its home dir.
var CtrldFiles = []string{ResultFile, CtrldConfig}

// HomeFiles are the files this package's programs make in the home dir on
// macOS and Linux, for the package scripts' purge: the wrapper's own, the
// settings file the admin placed for it, and ctrld's.
var HomeFiles = append(append([]string{SettingsFile}, WrapperFiles...), CtrldFiles...)

// InstallFolderFiles are the files the MSI removes from its install
// folder, ctrld's home dir on Windows: the wrapper's and ctrld's. The
// record's names are among them although Windows keeps the record in
// RecordFolder, so that no file the wrapper adds is left behind.
var InstallFolderFiles = append(append([]string(nil), WrapperFiles...), CtrldFiles...)

// Where ctrld keeps its own files on Linux. The pid file and the sysv
// service's logs are named after its binary (ctrld or ctrld-client); the
// sockets and the home dir's log are not, so both lines use the same
// ones (as the real ctrld-client shows). Package removal deletes them
// once ctrld is gone.
const (
	// RunDir holds ctrld's sockets and pid file while its daemon runs.
	RunDir = "/run"
	// LogDir holds the logs of ctrld's sysv service.
	LogDir = "/var/log"
	// ControlSocket is the socket in RunDir on which the daemon of
	// either line answers ctrld's own commands once it is up.
	ControlSocket = "ctrld_control.sock"
	// StartSocket is the socket in RunDir a running start of either line
	// holds; a failed or killed start leaves it.
	StartSocket = "ctrld_start.sock"
)

// CtrldRunFiles are the sockets and the pid file of ctrld's binary
// named ctrld in RunDir.
func CtrldRunFiles(ctrld string) []string {
	return []string{CtrldControlSocket(ctrld), StartSocket, ctrld + ".pid"}
}

// CtrldControlSocket is the socket in RunDir on which the daemon of the
// ctrld binary named ctrld answers: ControlSocket, whichever line.
func CtrldControlSocket(string) string { return ControlSocket }

// CtrldLogs are ctrld's logs in LogDir.
func CtrldLogs(ctrld string) []string { return []string{ctrld + ".log", ctrld + ".err"} }

// CtrldHomeLogs are the logs ctrld v2 keeps in the home dir instead:
// HomeLog, whichever line.
func CtrldHomeLogs(string) []string { return []string{HomeLog} }

// The logs either ctrld line keeps in its home dir, named the same
// whatever its binary's name: upstream's newer code writes ctrld.log with
// up to four numbered backups and ctrld-journal.log with two.
const (
	HomeLog            = "ctrld.log"
	HomeLogBackups     = 4
	HomeJournal        = "ctrld-journal.log"
	HomeJournalBackups = 2
)

// CtrldLineHomeFiles are the files either ctrld line writes in its home
// dir beside CtrldFiles' result: its configuration and every log and
// backup, for a removal that leaves nothing of either line.
func CtrldLineHomeFiles() []string {
	out := []string{CtrldConfig}
	for _, log := range []struct {
		name    string
		backups int
	}{{HomeLog, HomeLogBackups}, {HomeJournal, HomeJournalBackups}} {
		out = append(out, log.name)
		for i := 1; i <= log.backups; i++ {
			out = append(out, log.name+"."+string(rune('0'+i)))
		}
	}
	return out
}

// VersionVar is the variable the release build stamps with -X: the
// wrapper's `version` prints it.
const VersionVar = "github.com/ctrld-install/ctrld-install/wrapper/internal/cli.Version"

// Package names the installers publish. PkgIdentifier is the macOS pkg's
// receipt id (what pkgutil and MDM detection rules look up). It has the
// same value as ManagedPrefsDomain by Apple's reverse-DNS convention, but
// the two are separate promises to admins: one names the receipt, the
// other the domain their profiles target.
const (
	PkgIdentifier = "com.controld.ctrld"
	// LinuxPackage is the deb and rpm package name (dpkg -s, rpm -q),
	// which the tarball's name starts with too.
	LinuxPackage = "ctrld"
)

// TokenEnv is the environment variable that may carry the provisioning
// token to the wrapper; the wrapper removes it from ctrld's environment,
// so the token reaches ctrld only in argv. The Linux package scripts name
// it in their advice, and the fake ctrld reports when it leaks through.
const TokenEnv = "CTRLD_PROVISION_TOKEN"

// CtrldLine is what sets one line of ctrld releases apart from the
// other: v1 and v2.0.0-pre ship as ctrld, the client line as
// ctrld-client. Each line names its service after its binary; the two
// services are meant to be able to exist side by side on one machine,
// both wanting port 53 and the same home dir.
type CtrldLine struct {
	// Binary is the binary's name, which is also the service's name
	// (the systemd unit, the init script, the launchd plist, the SCM
	// entry).
	Binary string
	// DisplayName is the Windows service's display name: Windows wants
	// it unique, so the lines differ here too.
	DisplayName string
}

// CtrldLines are the lines, in the order of CtrldNames.
var CtrldLines = []CtrldLine{
	{Binary: Ctrld, DisplayName: "Control-D Helper Service"},
	{Binary: CtrldClient, DisplayName: "Control-D Client Service"},
}

// LineOf is the line whose binary is named name (without any .exe); an
// unknown name is taken for the first line, whose names the service
// takes from the binary all the same.
func LineOf(name string) CtrldLine {
	for _, l := range CtrldLines {
		if l.Binary == name {
			return l
		}
	}
	return CtrldLine{Binary: name, DisplayName: CtrldLines[0].DisplayName}
}

// OtherLines are the lines other than the one whose binary is named
// name: the services that may be installed beside it.
func OtherLines(name string) []CtrldLine {
	var out []CtrldLine
	for _, l := range CtrldLines {
		if l.Binary != name {
			out = append(out, l)
		}
	}
	return out
}
