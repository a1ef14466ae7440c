package settings

import "strings"

// Token length bounds. ctrld's tokens are short ASCII strings; the upper
// bound only keeps argv sane.
const (
	minTokenLen = 1
	maxTokenLen = 1024
)

// TokenWellFormed accepts printable ASCII without spaces, quotes or
// backslashes. Whitespace, control characters and anything outside ASCII
// are malformed; so are `"` and `\`, because the MSI passes the token on
// the wrapper's command line, where they could end the argument and add
// flags.
func TokenWellFormed(t string) bool {
	if len(t) < minTokenLen || len(t) > maxTokenLen {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] <= 0x20 || t[i] >= 0x7f || t[i] == '"' || t[i] == '\\' {
			return false
		}
	}
	return true
}

// Hostname length bounds, in all.
const (
	minHostnameLen = 3
	maxHostnameLen = 64
)

// HostnameValid applies RFC 1123: labels of letters, digits and hyphens,
// not starting or ending with a hyphen, at most 63 characters each, and
// 3 to 64 characters in all.
func HostnameValid(h string) bool {
	if len(h) < minHostnameLen || len(h) > maxHostnameLen {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if !labelValid(label) {
			return false
		}
	}
	return true
}

func labelValid(l string) bool {
	if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Intercept modes as admins write them.
const (
	InterceptStandard = "standard"
	InterceptDNS      = "intercept-dns"
)

// InterceptArg maps an InterceptMode setting to ctrld's --intercept-mode
// value: standard is "off", intercept-dns is "dns".
func InterceptArg(mode string) (string, bool) {
	c, ok := findChoice(interceptChoices, mode)
	return c.Ctrld, ok
}
