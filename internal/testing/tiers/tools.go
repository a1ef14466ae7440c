package tiers

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// aptPackagesFile lists every Debian package the builds and tests need.
var aptPackagesFile = filepath.Join(".ci", "apt-packages")

// Tools installs, on Debian as root, every package of aptPackagesFile
// that is missing.
func Tools() error {
	if !canApt() {
		return fmt.Errorf("tools: needs root on Debian; elsewhere install the packages in %s by hand", aptPackagesFile)
	}
	return installTestTools()
}

// TestTools installs the real-install tiers' tools when it runs as root
// on Debian; elsewhere it says those tiers skip.
func TestTools() error {
	if !canApt() {
		fmt.Printf("test tools: not root on Debian, so nothing is installed: tests needing dpkg, rpm, Wine or msitools skip (and fail under CI=true); install %s to run them\n", aptPackagesFile)
		return nil
	}
	return installTestTools()
}

// canApt: root on Debian or a derivative, where apt-get installs for us.
func canApt() bool {
	if os.Geteuid() != 0 {
		return false
	}
	if _, err := os.Stat("/etc/debian_version"); err != nil {
		return false
	}
	_, err := exec.LookPath("apt-get")
	return err == nil
}

// installTestTools installs what aptPackagesFile lists and dpkg lacks.
func installTestTools() error {
	pkgs, err := aptPackages()
	if err != nil {
		return err
	}
	var missing []string
	for _, p := range pkgs {
		if out, err := exec.Command("dpkg-query", "-W", "-f=${Status}", p).Output(); err != nil || !strings.HasSuffix(string(out), " installed") {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	fmt.Printf("installing test tools from %s: %s\n", aptPackagesFile, strings.Join(missing, " "))
	return aptInstall(missing)
}

func aptInstall(pkgs []string) error {
	env := append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	for _, args := range [][]string{
		{"update", "-qq"},
		append([]string{"install", "-y", "-qq", "--no-install-recommends"}, pkgs...),
	} {
		cmd := exec.Command("apt-get", args...)
		cmd.Env, cmd.Stdout, cmd.Stderr = env, os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("apt-get %s: %w", args[0], err)
		}
	}
	return nil
}

func aptPackages() ([]string, error) {
	f, err := os.Open(aptPackagesFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var pkgs []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			pkgs = append(pkgs, line)
		}
	}
	return pkgs, sc.Err()
}
