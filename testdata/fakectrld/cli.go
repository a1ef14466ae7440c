package main

import (
	"path/filepath"
	"strings"

	"github.com/ctrld-install/ctrld-install/internal/names"
)

// helpText is what every ctrld line prints for --help: the client line
// too still calls itself ctrld there (testdata/ctrld-output/real-*/help.txt).
const helpText = `        __         .__       .___
  _____/  |________|  |    __| _/
_/ ___\   __\_  __ \  |   / __ |
\  \___|  |  |  | \/  |__/ /_/ |
 \___  >__|  |__|  |____/\____ |
     \/ dns forwarding proxy  \/

Usage:
  ctrld [command]

Available Commands:
  run         Run the DNS proxy server
  start       Quick start service and configure DNS on interface
  stop        Quick stop service and remove DNS from interface
  restart     Restart the ctrld service
  reload      Reload the ctrld service
  status      Show status of the ctrld service
  uninstall   Stop and uninstall the ctrld service
  service     Manage ctrld service
  clients     Manage clients
  upgrade     Upgrading ctrld to latest version
  log         Manage runtime debug logs

Flags:
  -h, --help            help for ctrld
  -s, --silent          do not write any log output
  -v, --verbose count   verbose log output, "-v" basic logging, "-vv" debug logging
      --version         version for ctrld

Use "ctrld [command] --help" for more information about a command.
`

// Versions the fake reports, by line and format, unless its scenario
// names one: the real binaries the fixtures come from.
const (
	versionV1     = "v1.5.0"
	versionV2     = "v2.0.0-pre"
	versionClient = "v2.0.0-pre-client"
)

// versionLine is what --version prints: every line calls itself ctrld.
func versionLine(binary, format, version string) string {
	if version == "" {
		version = defaultVersion(binary, format)
	}
	return "ctrld version " + version + "\n"
}

func defaultVersion(binary, format string) string {
	if lineName(binary) == names.CtrldClient {
		return versionClient
	}
	if format == formatV2 {
		return versionV2
	}
	return versionV1
}

// lineName is the ctrld line a binary at path plays: its name without
// any .exe, as the service takes it.
func lineName(path string) string {
	base := filepath.Base(path)
	return names.LineOf(strings.TrimSuffix(base, filepath.Ext(base))).Binary
}
