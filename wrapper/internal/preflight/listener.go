package preflight

import (
	"context"
	"net"
	"strconv"
	"strings"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

// The protocols ctrld's listener serves DNS on.
const (
	UDP = "udp"
	TCP = "tcp"
)

// listenerChecks bind each address ctrld's listener would try, in
// ctrld's order, UDP and TCP, and close it at once. When one cannot be
// bound they name who holds the port, where the OS tells. ctrld falls
// back from one address to the next, so start fails only when no
// address takes both; until then a failed address is a warning.
func listenerChecks(ctx context.Context, addrs []string, holders HolderFinder) []Check {
	var checks []Check
	fallback := ""
	for _, addr := range addrs {
		udp, tcp := bindCheck(ctx, UDP, addr, holders), bindCheck(ctx, TCP, addr, holders)
		if udp.OK && tcp.OK && fallback == "" {
			fallback = addr
		}
		checks = append(checks, udp, tcp)
	}
	if fallback == "" {
		return checks
	}
	for i := range checks {
		if !checks[i].OK {
			checks[i].Code = codes.Code{}
			checks[i].Detail += "; ctrld falls back to " + fallback
		}
	}
	return checks
}

func bindCheck(ctx context.Context, proto, addr string, holders HolderFinder) Check {
	name := "listener " + proto + " " + addr
	err := bindAndClose(proto, addr)
	if err == nil {
		return pass(name, "bindable")
	}
	detail := bindError(err)
	if who := heldBy(ctx, holders, proto, addr); who != "" {
		detail += "; held by " + who
	}
	return fail(name, codes.ListenerBindFailed, detail)
}

func bindAndClose(proto, addr string) error {
	if proto == UDP {
		c, err := net.ListenPacket(proto, addr)
		if err != nil {
			return err
		}
		return c.Close()
	}
	l, err := net.Listen(proto, addr)
	if err != nil {
		return err
	}
	return l.Close()
}

// bindError is the OS's reason, without Go's "listen udp ADDR:" prefix.
func bindError(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	if strings.Contains(msg, "permission denied") || strings.Contains(msg, "access permissions") {
		msg += " (start runs as root; run preflight as root too)"
	}
	return msg
}

// heldBy names the holders of addr's port, "" when the OS tells none.
func heldBy(ctx context.Context, holders HolderFinder, proto, addr string) string {
	if holders == nil {
		return ""
	}
	_, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return ""
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return ""
	}
	found, err := holders(ctx, proto, port)
	if err != nil || len(found) == 0 {
		return ""
	}
	names := make([]string, 0, len(found))
	for _, h := range found {
		names = append(names, h.String())
	}
	return strings.Join(names, ", ")
}
