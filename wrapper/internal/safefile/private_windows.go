package safefile

import (
	"os"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/winacl"
)

// CreatePrivate creates a new file at path that only SYSTEM and
// Administrators may read (winacl.PrivateFile, set as it is created). A
// name already there is removed first, as a name: the file is never
// opened through a link.
func CreatePrivate(path string) (*os.File, error) { return winacl.CreatePrivate(path) }
