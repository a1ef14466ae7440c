package preflight

// DefaultHolders reads /proc.
func DefaultHolders() HolderFinder { return ProcHolders{Root: "/proc"}.Find }
