//go:build unix

// Command testmain is ctrld-install for tests, never shipped: the real
// command line with two debug seams, set from the environment, that the
// release main does not have.
//
//	CTRLD_INSTALL_TEST_OS=darwin   the macOS behaviour (managed preferences,
//	                               launchd plist gate, launchctl reload, the
//	                               move off /usr/local/bin) in a
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
//	                               PATH (macOS and Linux have none)
//	CTRLD_INSTALL_TEST_STALLED_POLICY=PATH reading the OS policy (a settings
//	                               source) creates PATH, then never ends: a
//	                               settings read in progress, for a signal
package main

import (
	"os"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/cli"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/record"
)

// The debug seams' environment variables.
const (
	osEnv      = "CTRLD_INSTALL_TEST_OS"
	syslogEnv  = "CTRLD_INSTALL_TEST_SYSLOG"
	etcEnv     = "CTRLD_INSTALL_TEST_ETC"
	msiexecEnv = "CTRLD_INSTALL_TEST_MSIEXEC"
	stalledEnv = "CTRLD_INSTALL_TEST_STALLED_POLICY"
)

func main() {
	sys := cli.System{OS: platform.Current(), OpenLog: record.OpenSystemLog, Env: os.Environ(), Stdin: os.Stdin}
	etc := os.Getenv(etcEnv)
	switch {
	case os.Getenv(osEnv) == "darwin":
		sys.OS = platform.NewDarwin(platform.ExecRunner)
	case etc != "":
		sys.OS = platform.Linux{Run: platform.ExecRunner, Paths: platform.LinuxPaths{Etc: etc}}
	}
	if path := os.Getenv(msiexecEnv); path != "" {
		sys.OS = standInMsiexec{OS: sys.OS, path: path}
	}
	if path := os.Getenv(stalledEnv); path != "" {
		sys.OS = stalledPolicy{OS: sys.OS, began: path}
	}
	if path := os.Getenv(syslogEnv); path != "" {
		sys.OpenLog = func() record.SystemLog { return record.OpenSystemLogAt(path) }
	}
	os.Exit(cli.Run(sys, os.Args[1:], os.Stdout, os.Stderr))
}

// stalledPolicy is an OS whose policy read says it began, by creating a
// file, and then never ends.
type stalledPolicy struct {
	platform.OS
	began string
}

func (s stalledPolicy) Policy() settings.Settings {
	os.WriteFile(s.began, nil, 0o600)
	for {
		time.Sleep(time.Hour)
	}
}

// standInMsiexec is an OS whose msiexec is the stand-in at path.
type standInMsiexec struct {
	platform.OS
	path string
}

func (s standInMsiexec) Msiexec() string { return s.path }
