//go:build unix

// Command testmain is ctrld-install for tests, never shipped: the real
// command line with two debug seams, set from the environment, that the
// release main does not have.
//
//	CTRLD_INSTALL_TEST_OS=darwin   the macOS behaviour (managed preferences,
//	                               launchd plist gate, launchctl reload) in a
//	                               Linux build, for the pkg's postinstall in a
//	                               chroot laid out like a Mac
//	CTRLD_INSTALL_TEST_SYSLOG=PATH the OS log goes to the unixgram socket at
//	                               PATH, which the test reads
//	CTRLD_INSTALL_TEST_ETC=DIR     the Linux clean-up (after an uninstall or a
//	                               failed install) works in DIR instead of
//	                               /etc (resolv.conf, init.d, rc?.d), stops no
//	                               process and never runs systemctl, so tests
//	                               never touch the host's or each other's
//	CTRLD_INSTALL_TEST_MSIEXEC=PATH install-msi runs the stand-in msiexec at
//	                               PATH (Linux has none)
package main

import (
	"os"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/cli"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/report"
)

// The debug seams' environment variables.
const (
	osEnv      = "CTRLD_INSTALL_TEST_OS"
	syslogEnv  = "CTRLD_INSTALL_TEST_SYSLOG"
	etcEnv     = "CTRLD_INSTALL_TEST_ETC"
	msiexecEnv = "CTRLD_INSTALL_TEST_MSIEXEC"
)

func main() {
	sys := cli.System{OS: platform.Current(), OpenLog: report.OpenSystemLog, Env: os.Environ()}
	if os.Getenv(osEnv) == "darwin" {
		sys.OS = platform.Darwin{Run: platform.ExecRunner}
	}
	if linux, ok := sys.OS.(platform.Linux); ok {
		if dir := os.Getenv(etcEnv); dir != "" {
			linux.Etc, linux.Proc, linux.RunDir, linux.Systemctl = dir, "", "", ""
		}
		linux.MsiexecPath = os.Getenv(msiexecEnv)
		sys.OS = linux
	}
	if path := os.Getenv(syslogEnv); path != "" {
		sys.OpenLog = func() report.SystemLog { return report.OpenSystemLogAt(path) }
	}
	os.Exit(cli.Run(sys, os.Args[1:], os.Stdout, os.Stderr))
}
