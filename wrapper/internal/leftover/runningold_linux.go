package leftover

// RunningOld reports whether a process of our namespaces runs a copy of
// binary that is no longer the file at its path: the old daemon after an
// upgrade replaced the binary, even beside a daemon of the new one.
func RunningOld(procDir, binary string) bool {
	return anyRuns(procDir, binary, func(sameFile bool) bool { return !sameFile })
}
