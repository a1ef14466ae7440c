package managed

import "io/fs"

// fileOwner: Windows has no uid; the settings file is a Linux source
// (read on Windows only when --settings names one), and its folder's ACL
// is the caller's business there.
func fileOwner(fs.FileInfo) (uid uint32, known bool) { return 0, false }
