package preflight

// DefaultHolders runs the system's lsof.
func DefaultHolders() HolderFinder { return LsofHolders{Path: "/usr/sbin/lsof"}.Find }
