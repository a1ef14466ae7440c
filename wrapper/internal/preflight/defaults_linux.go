package preflight

// DefaultListen is the listener ctrld writes into a config it makes for
// itself on Linux: every address, port 53.
var DefaultListen = []string{"0.0.0.0:53"}
