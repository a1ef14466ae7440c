package preflight

import (
	"context"
	"net"
	"slices"
	"strconv"
	"strings"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/provision"
)

// moveFailed is start's code when the other line's service cannot be
// removed.
var moveFailed = codes.ServiceInstallFailed

// besideChecks name the ctrld service of another line (ctrld beside
// ctrld-client, or the reverse) installed beside the one start would run.
// Both want port 53 and the same home dir, so start moves the device off
// the other line's service, and answers SERVICE_INSTALL_FAILED when that
// service cannot be removed. Whether it can is not known beforehand, so
// each is a warning that names that code; a daemon actually holding the
// port is portChecks' business.
func besideChecks(p *provision.Provisioner) []Check {
	ours := provision.ServiceName(p.Config.Ctrld)
	if ours == "" || ours == "." {
		return nil
	}
	other, found := p.OtherLineInstalled()
	if !found {
		return nil
	}
	return []Check{warn("ctrld service "+other.Name,
		"the "+other.Name+" service ("+names.LineOf(other.Name).DisplayName+") is installed beside the "+ours+
			" service start would run: both want port 53 and "+p.Config.Home+"; start moves the device off it (stops and removes it first) and answers "+
			moveFailed.Name+" (exit "+strconv.Itoa(moveFailed.Exit)+") if it cannot remove it")}
}

// portChecks name a ctrld daemon, of either line and whoever installed
// it, holding a port ctrld's listener would bind. Its code is the
// listener's: LISTENER_BIND_FAILED when no listener address can be
// bound (listener, the listener checks), a warning when ctrld falls back
// to one that can.
func portChecks(ctx context.Context, addrs []string, holders HolderFinder, listener []Check) []Check {
	if holders == nil {
		return nil
	}
	code := codes.Code{}
	if slices.ContainsFunc(listener, Check.Fails) {
		code = codes.ListenerBindFailed
	}
	var checks []Check
	for _, port := range ports(addrs) {
		for _, proto := range []string{UDP, TCP} {
			found, err := holders(ctx, proto, port)
			if err != nil {
				continue
			}
			if daemons := ctrldDaemons(found); len(daemons) > 0 {
				checks = append(checks, Check{Name: "ctrld on " + proto + " port " + strconv.Itoa(port), Code: code,
					Detail: "a ctrld daemon holds the port: " + strings.Join(daemons, ", ")})
			}
		}
	}
	return checks
}

// ctrldDaemons names the holders that run a ctrld binary of either line,
// with the service their name gives.
func ctrldDaemons(found []Holder) []string {
	var out []string
	for _, h := range found {
		if slices.Contains(names.CtrldNames, h.Name) {
			out = append(out, h.String()+", the "+h.Name+" service's daemon")
		}
	}
	return out
}

// ports are the distinct ports of addrs, in their order.
func ports(addrs []string) []int {
	var out []int
	for _, a := range addrs {
		_, text, err := net.SplitHostPort(a)
		if err != nil {
			continue
		}
		if port, err := strconv.Atoi(text); err == nil && !slices.Contains(out, port) {
			out = append(out, port)
		}
	}
	return out
}
