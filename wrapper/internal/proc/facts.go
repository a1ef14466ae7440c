package proc

// Facts are what the wrapper reads of a running process to tell it from
// any later process that is given the same id.
type Facts struct {
	Pid   int
	Group int
	// Start is when the process started, in the OS's own units. Within
	// one boot, pid and start time name one process.
	Start uint64
	// UID is the real user id: a set-user-id program keeps its caller's.
	UID uint32
	// Exe is the file the process runs; zero when it cannot be read.
	Exe    FileID
	Zombie bool
}

// FileID names a file by device and inode: the file itself, whatever
// path shows it.
type FileID struct{ Dev, Ino uint64 }
