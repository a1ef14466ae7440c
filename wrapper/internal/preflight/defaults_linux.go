package preflight

// DefaultListen are the listener addresses ctrld tries, in its order, on
// Linux when it writes its own config: every address on port 53, then
// loopback (as the real ctrld v1.5.0 does).
var DefaultListen = []string{"0.0.0.0:53", "127.0.0.1:53"}
