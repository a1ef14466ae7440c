package leftover

// Running reports whether any process runs binary, a replaced or
// deleted copy of it included. procDir is /proc.
func Running(procDir, binary string) bool {
	return len(matching(procDir, resolved(binary))) > 0
}
