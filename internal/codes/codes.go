// Package codes holds the provisioning code table: ctrld's stage codes and
// the wrapper's own package-stage codes. Everything else (the line parser,
// the docs, the Intune return-code list) derives from Table.
package codes

// Stage names as they appear in the one line.
const (
	StageInput     = "input"
	StageBootstrap = "bootstrap"
	StageListener  = "listener"
	StageService   = "service"
	StagePackage   = "package"
)

// Code is one row of the table.
type Code struct {
	Stage   string `json:"stage"`
	Name    string `json:"code"`
	Exit    int    `json:"exit"`
	Meaning string `json:"meaning"`
	Class   Class  `json:"class"`
}

// Range is the inclusive span of exit codes a stage owns.
type Range struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// Contains reports whether exit lies inside the range.
func (r Range) Contains(exit int) bool { return exit >= r.Min && exit <= r.Max }

// StageRanges lists every stage, in order, with the exit codes it owns.
var StageRanges = []struct {
	Stage string
	Range Range
}{
	{StageInput, Range{20, 29}},
	{StageBootstrap, Range{30, 39}},
	{StageListener, Range{40, 49}},
	{StageService, Range{50, 59}},
	{StagePackage, Range{60, 69}},
}

// The codes, one named value each, so the compiler catches a typo.
var (
	ProvisionTokenMalformed           = Code{StageInput, "PROVISION_TOKEN_MALFORMED", 21, "the provisioning token has the wrong shape (whitespace, control characters, length)", Terminal}
	CustomHostnameInvalid             = Code{StageInput, "CUSTOM_HOSTNAME_INVALID", 22, "the custom hostname is not an RFC 1123 name of 3 to 64 characters", Terminal}
	InterceptModeInvalid              = Code{StageInput, "INTERCEPT_MODE_INVALID", 23, "the intercept mode is not one ctrld accepts", Terminal}
	InvalidFlagCombination            = Code{StageInput, "INVALID_FLAG_COMBINATION", 24, "ctrld was given flags that cannot be used together", Terminal}
	APIUnreachable                    = Code{StageBootstrap, "API_UNREACHABLE", 30, "the Control D API could not be reached", Transient}
	APIRejected                       = Code{StageBootstrap, "API_REJECTED", 31, "the Control D API refused the request", Terminal}
	APIDeviceInvalid                  = Code{StageBootstrap, "API_DEVICE_INVALID", 32, "the API answered with a device ctrld cannot use", Terminal}
	TokenInvalid                      = Code{StageBootstrap, "TOKEN_INVALID", 33, "the provisioning token is not known to Control D", Terminal}
	TokenExpired                      = Code{StageBootstrap, "TOKEN_EXPIRED", 34, "the provisioning token has expired", Terminal}
	TokenLimitReached                 = Code{StageBootstrap, "TOKEN_LIMIT_REACHED", 35, "the provisioning token has reached its device limit", Terminal}
	TokenDisabled                     = Code{StageBootstrap, "TOKEN_DISABLED", 36, "the provisioning token is disabled", Terminal}
	ListenerBindFailed                = Code{StageListener, "LISTENER_BIND_FAILED", 41, "ctrld could not bind a DNS listener (port 53 taken)", Terminal}
	ListenerConfiguredAddrUnavailable = Code{StageListener, "LISTENER_CONFIGURED_ADDR_UNAVAILABLE", 42, "the configured listener address does not exist on this machine", Terminal}
	ServiceInstallFailed              = Code{StageService, "SERVICE_INSTALL_FAILED", 51, "the OS service could not be installed", Terminal}
	ServiceStartFailed                = Code{StageService, "SERVICE_START_FAILED", 52, "the OS service was installed but did not start", Terminal}
	ServiceSelfcheckFailed            = Code{StageService, "SERVICE_SELFCHECK_FAILED", 53, "the service started but failed its self-check", Terminal}
	Unclassified                      = Code{StageService, "UNCLASSIFIED", 59, "ctrld failed in the service stage with no finer code", Terminal}
	ProfilePrefsMissing               = Code{StagePackage, "PROFILE_PREFS_MISSING", 61, "fresh install and no provisioning token from any source", Transient}
	CtrldNotFound                     = Code{StagePackage, "CTRLD_NOT_FOUND", 62, "the ctrld binary is missing or not executable", Terminal}
	CtrldTimeout                      = Code{StagePackage, "CTRLD_TIMEOUT", 63, "ctrld start outlived the timeout; its process tree was killed", Transient}
	CtrldUnidentified                 = Code{StagePackage, "CTRLD_UNIDENTIFIED", 64, "ctrld failed and left no identifier, no trusted result file, no mapped exit code", Terminal}
	SuccessGateFailed                 = Code{StagePackage, "SUCCESS_GATE_FAILED", 65, "ctrld exited 0 but the service is not installed and running", Transient}
	ServiceReloadFailed               = Code{StagePackage, "SERVICE_RELOAD_FAILED", 66, "the upgrade's reload of the existing service failed", Terminal}
	InstallInProgress                 = Code{StagePackage, "INSTALL_IN_PROGRESS", 67, "another ctrld-install run holds the lock", Transient}
	WrapperInterrupted                = Code{StagePackage, "WRAPPER_INTERRUPTED", 68, "the installer cancelled the wrapper; ctrld was stopped", Transient}
	WrapperInternal                   = Code{StagePackage, "WRAPPER_INTERNAL", 69, "the wrapper hit an error it could not handle", Terminal}
)

// Table is the code table. It is append-only: codes and exits are never
// reused or renumbered.
var Table = []Code{
	ProvisionTokenMalformed, CustomHostnameInvalid, InterceptModeInvalid,
	InvalidFlagCombination, APIUnreachable, APIRejected, APIDeviceInvalid,
	TokenInvalid, TokenExpired, TokenLimitReached, TokenDisabled,
	ListenerBindFailed, ListenerConfiguredAddrUnavailable,
	ServiceInstallFailed, ServiceStartFailed, ServiceSelfcheckFailed,
	Unclassified, ProfilePrefsMissing, CtrldNotFound, CtrldTimeout,
	CtrldUnidentified, SuccessGateFailed, ServiceReloadFailed,
	InstallInProgress, WrapperInterrupted, WrapperInternal,
}

// CtrldStages are the stages that may be taken from ctrld's output or
// result file. The package stage belongs to the wrapper alone.
var CtrldStages = []string{StageInput, StageBootstrap, StageListener, StageService}

// MaxCodeLen bounds the length of a code name accepted from ctrld.
const MaxCodeLen = 64

// StageRange returns the exit range of a stage.
func StageRange(stage string) (Range, bool) {
	for _, s := range StageRanges {
		if s.Stage == stage {
			return s.Range, true
		}
	}
	return Range{}, false
}

// Lookup finds a code by name.
func Lookup(name string) (Code, bool) {
	for _, c := range Table {
		if c.Name == name {
			return c, true
		}
	}
	return Code{}, false
}

// ByExit finds the single code that owns an exit value.
func ByExit(exit int) (Code, bool) {
	for _, c := range Table {
		if c.Exit == exit {
			return c, true
		}
	}
	return Code{}, false
}

// IsCtrldStage reports whether ctrld may report this stage.
func IsCtrldStage(stage string) bool {
	for _, s := range CtrldStages {
		if s == stage {
			return true
		}
	}
	return false
}

// ValidFromCtrld decides whether a stage/code/exit triple reported by ctrld
// is trustworthy. allowUnknown admits a code missing from the table (a
// newer ctrld) as long as its stage and exit fit.
func ValidFromCtrld(stage, name string, exit int, allowUnknown bool) (Code, bool) {
	if !IsCtrldStage(stage) || !validName(name) {
		return Code{}, false
	}
	r, _ := StageRange(stage)
	if !r.Contains(exit) {
		return Code{}, false
	}
	if known, ok := Lookup(name); ok {
		if known.Stage != stage || known.Exit != exit {
			return Code{}, false
		}
		return known, true
	}
	if !allowUnknown {
		return Code{}, false
	}
	return Code{Stage: stage, Name: name, Exit: exit}, true
}
