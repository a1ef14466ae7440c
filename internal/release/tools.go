package release

import (
	"fmt"
	"os/exec"
	"slices"
	"sort"
	"strings"
)

// Tool is one external program the release build runs.
type Tool struct {
	Name string
	// Debian and Homebrew name the package that provides it.
	Debian, Homebrew string
	// Kinds are the artifact kinds that need it.
	Kinds []string
	// SigningOnly tools are needed only when the kind is signed.
	SigningOnly bool
}

// Tools is every external tool of the release build: none today, every
// kind is built and signed in Go. A kind that ever needs a tool lists it
// here, and dist installs or names it.
var Tools = []Tool{}

// MissingTools lists the tools that the wanted kinds need and PATH lacks.
func MissingTools(cfg Config) []Tool {
	var missing []Tool
	for _, t := range Tools {
		if !t.neededBy(cfg) {
			continue
		}
		if _, err := exec.LookPath(t.Name); err != nil {
			missing = append(missing, t)
		}
	}
	return missing
}

func (t Tool) neededBy(cfg Config) bool {
	for _, name := range t.Kinds {
		k, ok := KindNamed(name)
		if !ok || !cfg.wants(name) {
			continue
		}
		if !t.SigningOnly || (k.Signer != nil && k.Signer(cfg.Signing) != nil) {
			return true
		}
	}
	return false
}

// DebianPackages are the Debian packages that provide tools.
func DebianPackages(tools []Tool) []string {
	return packageNames(tools, func(t Tool) string { return t.Debian })
}

// HomebrewFormulas are the Homebrew formulas that provide tools.
func HomebrewFormulas(tools []Tool) []string {
	return packageNames(tools, func(t Tool) string { return t.Homebrew })
}

func packageNames(tools []Tool, name func(Tool) string) []string {
	var names []string
	for _, t := range tools {
		if n := name(t); n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// MissingToolsError names the missing tools, the kinds that need them, and
// the command that installs them on Debian or Ubuntu and on macOS.
func MissingToolsError(missing []Tool) error {
	if len(missing) == 0 {
		return nil
	}
	var names, kinds []string
	for _, t := range missing {
		names = append(names, t.Name)
		for _, k := range t.Kinds {
			if !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
		}
	}
	sort.Strings(names)
	return fmt.Errorf("missing tools for %s: %s; install them with\n  Debian/Ubuntu: sudo apt-get install -y %s\n  macOS:         brew install %s\nor build only the other kinds (go run mage.go -l lists them)",
		strings.Join(kinds, ", "), strings.Join(names, ", "),
		strings.Join(DebianPackages(missing), " "), strings.Join(HomebrewFormulas(missing), " "))
}
