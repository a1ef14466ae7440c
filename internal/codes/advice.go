package codes

// Advice is what support does with a code: the scenario behind it, the
// next safe action, and the evidence that settles it. The support doc's
// table is held to this data by a test; `ctrld-install explain` prints it.
// For ctrld's codes it agrees with ctrld's own support mapping.
type Advice struct {
	Scenario   string `json:"scenario"`
	NextAction string `json:"next_action"`
	Evidence   string `json:"evidence"`
}

// noEvidence is the evidence of a code that says everything itself.
const noEvidence = "None needed beyond the code."

// AdviceByCode holds one entry for every code in Table.
var AdviceByCode = map[string]Advice{
	"PROVISION_TOKEN_MALFORMED": {
		"The token has the wrong shape: spaces, line breaks or control characters (often a copy-paste error), non-ASCII characters, or an absurd length. It was refused before the Control D API was asked.",
		"Copy the token again from the Control D dashboard into the profile, policy or settings file, with no surrounding spaces, and reinstall. Never paste the token into a ticket.",
		noEvidence,
	},
	"CUSTOM_HOSTNAME_INVALID": {
		"CustomHostname is not an RFC 1123 name of 3 to 64 characters (letters, digits, hyphens, dots).",
		"Fix CustomHostname in the profile, policy or settings file, or remove it, then reinstall.",
		"The OS log (syslog, journal, Event Viewer) describes the refused value by its length and kinds of characters, never quoting it.",
	},
	"INTERCEPT_MODE_INVALID": {
		"InterceptMode is neither `standard` nor `intercept-dns` on a fresh install (on an upgrade it is only a warning).",
		"Set InterceptMode to `standard` or `intercept-dns`, or remove it, then reinstall.",
		"The OS log describes the refused value by its length and kinds of characters, never quoting it.",
	},
	"INVALID_FLAG_COMBINATION": {
		"ctrld was given flags that cannot be used together. The wrapper builds those flags, so this points at a packaging bug.",
		"Escalate to engineering with the package version and the settings in use (never the token).",
		"The result file's `message` (`ctrld-install explain`).",
	},
	"API_UNREACHABLE": {
		"The Control D API could not be reached, or answered with a retryable error (network failure, proxy or TLS interception, 5xx, timeout), and ctrld's retries ran out. The service manager may try again later.",
		"Check the device's path to `api.controld.com`: DNS, proxy, firewall, captive portal, TLS inspection. Reinstall once other HTTPS traffic from the device works.",
		"The result file's `message` (`ctrld-install explain`), and whether other HTTPS traffic from the device works.",
	},
	"API_REJECTED": {
		"The API answered and permanently rejected the request (an HTTP 4xx other than 408 or 429): a bad or revoked token, or a malformed request. Retrying cannot change the answer, so ctrld stops at once instead of having the service manager retry.",
		"Do not retry as it is. Check the provisioning token and the organisation's settings in the Control D dashboard, fix the credentials in the profile, policy or settings file, then push again.",
		"The HTTP status in the result file's `message` (`ctrld-install explain`).",
	},
	"API_DEVICE_INVALID": {
		"The API says the device or resolver no longer exists (API error 40402): it was deleted or re-provisioned in the dashboard. ctrld uninstalls its own service because the identity is gone on the server.",
		"Confirm in the dashboard that the device was deleted or re-provisioned, then provision again with a current token.",
		noEvidence,
	},
	"TOKEN_INVALID": {
		"Control D does not know the token: mistyped, deleted, or from another organisation.",
		"Copy a valid token from the dashboard into the profile, policy or settings file, then reinstall.",
		noEvidence,
	},
	"TOKEN_EXPIRED": {
		"The token has expired.",
		"Issue a new token in the dashboard, update the profile, policy or settings file, then reinstall.",
		noEvidence,
	},
	"TOKEN_LIMIT_REACHED": {
		"The token has reached its device limit.",
		"Raise the limit or issue another token, and remove retired devices; then reinstall.",
		noEvidence,
	},
	"TOKEN_DISABLED": {
		"The token is disabled in the dashboard.",
		"Re-enable it or issue a new one, then reinstall.",
		noEvidence,
	},
	"LISTENER_BIND_FAILED": {
		"ctrld could bind no DNS listener after every fallback (the configured address, 0.0.0.0:53, localhost:53, port 5354, a random port). Usually another DNS service owns port 53 (dnsmasq, systemd-resolved, a VPN or another DNS agent).",
		"Read each attempt's OS error. `address already in use`: find the owner of the port (`sudo lsof -i :53 -nP` on macOS and Linux, `netstat -abno` on Windows) and stop or reconfigure it. `can't assign requested address`: the configured IP is not on this machine, so fix the listener configuration. Then reinstall.",
		"`detail.attempts` in the result file: each address, protocol and OS error (`ctrld-install explain`).",
	},
	"LISTENER_CONFIGURED_ADDR_UNAVAILABLE": {
		"The listener address set explicitly in ctrld's configuration could not be bound, and the configuration allows no fallback to another address (or intercept mode on macOS needs exactly that address).",
		"Correct the configured `ip:port`: the IP must be on one of this machine's interfaces and nothing else may bind that port. Do not expect a fallback; reinstall after fixing the configuration.",
		"`detail.attempts` in the result file, when ctrld recorded any (`ctrld-install explain`).",
	},
	"SERVICE_INSTALL_FAILED": {
		"The OS service manager (launchd, systemd, the Windows SCM) refused to install ctrld's service.",
		"Check what blocks installing a daemon: missing root or elevation, an MDM or security policy, or a damaged previous install (uninstall it, then reinstall).",
		"The service manager's error in the result file's `message` (`ctrld-install explain`), plus `launchctl print system/ctrld` (macOS), `systemctl status ctrld` (Linux) or `sc query ctrld` (Windows); newer releases name the service `ctrld-client`.",
	},
	"SERVICE_START_FAILED": {
		"The service was installed, but the service manager could not start it.",
		"Read the service manager's log for the start error, then ctrld's own `ctrld.log` in its home dir. Common causes are permissions and security software quarantining the binary.",
		"The service manager's log around the attempt (`log show`, `journalctl -u ctrld`, Event Viewer System log) and `ctrld.log`.",
	},
	"SERVICE_SELFCHECK_FAILED": {
		"The service started but never became healthy: the DNS self-check after install failed and ctrld removed (rolled back) the service. When the daemon recorded a more specific failure, such as a listener code, that code is reported instead.",
		"Check that nothing intercepts DNS to ctrld's listener (host firewall, VPN, another DNS filter), then reinstall.",
		"The result file (`ctrld-install explain`) and ctrld's own `ctrld.log`, which holds the service log ctrld drained.",
	},
	"UNCLASSIFIED": {
		"ctrld failed in the service stage without a finer code.",
		"Escalate with the OS version and the package version.",
		"The result file's `message` (`ctrld-install explain`) and ctrld's own `ctrld.log`.",
	},
	"PROFILE_PREFS_MISSING": {
		"A fresh install found no token in any source: no configuration profile, policy or settings file, or it arrived too late (macOS waits about 2 minutes).",
		"Scope the profile or policy to the device and deliver it before the package (on Linux, create the settings file), then reinstall.",
		noEvidence,
	},
	"CTRLD_NOT_FOUND": {
		"The ctrld binary is missing or cannot run (wrong architecture, removed by security software, not executable).",
		"Reinstall the package; check security software's quarantine and that the package matches the CPU architecture.",
		"The OS version and CPU architecture; when ctrld was there but would not start, the OS log entry of `ctrld-install` that says why.",
	},
	"CTRLD_TIMEOUT": {
		"`ctrld start` ran longer than the timeout (5 minutes by default); ctrld and everything it started were stopped.",
		"Check that the device reaches the Control D API, then retry.",
		"ctrld's own `ctrld.log`, if it recurs.",
	},
	"CTRLD_UNIDENTIFIED": {
		"ctrld failed without an identifier: an older ctrld (before v1.5.6, which exits 1 on every failure and writes no result file) or a crash.",
		"Upgrade to a package with ctrld v1.5.6 or later, which reports precise codes, and reinstall. Until then, find the cause with the token-safe commands in the support doc (CTRLD_UNIDENTIFIED with an older ctrld); never ask for ctrld's raw output, it prints the token.",
		"`ctrld --version`, and the output of those token-safe commands.",
	},
	"SUCCESS_GATE_FAILED": {
		"ctrld said it succeeded but its service is not installed and running (`ctrld status` not 0, or no launchd plist on macOS, or no running Windows service).",
		"Retry the install; escalate if it recurs.",
		"`ctrld status` output and the service manager's log.",
	},
	"SERVICE_RELOAD_FAILED": {
		"On an upgrade, reloading the existing service failed, or on macOS the launchd job of a release in /usr/local/bin could not be unloaded to move it (nothing was changed then).",
		"Check the service definition still exists; restart the service by hand (`ctrld restart`, or `launchctl` on macOS), or reinstall.",
		"The service manager's log.",
	},
	"INSTALL_IN_PROGRESS": {
		"Another ctrld-install run was provisioning at the same time; this run changed nothing.",
		"Wait for the other run to finish and read its result with `ctrld-install explain`; do not force a parallel install.",
		"None: this run changed nothing and recorded nothing.",
	},
	"WRAPPER_INTERRUPTED": {
		"The installer was cancelled (user, MDM timeout, shutdown); ctrld was stopped.",
		"Retry when the device is idle.",
		"The MDM's install timeout, if it recurs.",
	},
	"WRAPPER_INTERNAL": {
		"ctrld-install hit an error it could not handle (for example it could not create the ctrld home dir, or refused one that a user other than root owns or may write in).",
		"Check free disk space and permissions on the ctrld home dir (a directory, not a link, owned by root, not group- or world-writable), then reinstall; escalate if it recurs.",
		"The OS version and the OS log entries of `ctrld-install`.",
	},
}

// StageAdvice covers a code from a newer ctrld that the table does not
// know yet: it is treated by its stage.
var StageAdvice = map[string]Advice{
	StageInput: {
		"A newer ctrld refused one of the settings before provisioning.",
		"Check the settings in the profile, policy or settings file against the newer ctrld's documentation.",
		"The ctrld version and the result file's `message` (`ctrld-install explain`).",
	},
	StageBootstrap: {
		"A newer ctrld failed while talking to the Control D API.",
		"Check network access to `api.controld.com` and the token in the dashboard.",
		"The ctrld version and the result file's `message` (`ctrld-install explain`).",
	},
	StageListener: {
		"A newer ctrld could not set up its DNS listener.",
		"Find what else serves DNS on the machine, as for LISTENER_BIND_FAILED.",
		"The ctrld version and `detail.attempts` in the result file (`ctrld-install explain`).",
	},
	StageService: {
		"A newer ctrld could not install or start its service.",
		"Check the service manager's log, as for SERVICE_INSTALL_FAILED.",
		"The ctrld version and the result file's `message` (`ctrld-install explain`).",
	},
}

// AdviceFor returns the advice for a code, falling back to its stage's
// advice for a code the table does not know.
func AdviceFor(c Code) (Advice, bool) {
	if a, ok := AdviceByCode[c.Name]; ok {
		return a, true
	}
	a, ok := StageAdvice[c.Stage]
	return a, ok
}
