//go:build !linux

package preflight

// DefaultListen is the listener ctrld writes into a config it makes for
// itself outside Linux: loopback, port 53.
var DefaultListen = []string{"127.0.0.1:53"}
