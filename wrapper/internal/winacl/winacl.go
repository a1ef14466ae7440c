// Package winacl reads and judges Windows security descriptors: who may
// replace or change a path (Controlled, which the check on the programs
// the wrapper runs as SYSTEM builds on), and the private files only
// SYSTEM and Administrators may read (PrivateFile, CreatePrivate). The
// judgement is plain logic over a path's facts, tested on any OS; reading
// those facts lives in the Windows file.
package winacl

import (
	"errors"
	"fmt"
)

// Well-known SIDs.
const (
	System             = "S-1-5-18"
	Administrators     = "S-1-5-32-544"
	TrustedInstaller   = "S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464"
	CreatorOwner       = "S-1-3-0"
	Users              = "S-1-5-32-545"
	AuthenticatedUsers = "S-1-5-11"
	Everyone           = "S-1-1-0"
	Interactive        = "S-1-5-4"
)

// PrivateFile is the security descriptor of the files only SYSTEM and
// Administrators may read: the evidence copy and msiexec's verbose log.
// It is protected, so the record folder's read entry for Users does not
// reach them.
const PrivateFile = "O:BAD:P(A;;FA;;;SY)(A;;FA;;;BA)"

// Rights that let a holder change what the folder holds or who may.
const (
	fileAddFile         = 0x00000002 // FILE_WRITE_DATA on a file
	fileAddSubdirectory = 0x00000004 // FILE_APPEND_DATA on a file
	fileWriteEA         = 0x00000010
	fileDeleteChild     = 0x00000040
	fileWriteAttributes = 0x00000100
	deleteRight         = 0x00010000
	writeDAC            = 0x00040000
	writeOwner          = 0x00080000
	genericAll          = 0x10000000
	genericWrite        = 0x40000000
	maximumAllowed      = 0x02000000

	// WriteRights change what a folder holds or a file says, or who may.
	WriteRights = fileAddFile | fileAddSubdirectory | fileWriteEA | fileDeleteChild | fileWriteAttributes |
		deleteRight | writeDAC | writeOwner | genericAll | genericWrite | maximumAllowed
	// ReplaceRights on a folder let a holder replace what is in it, or
	// the folder itself; adding a new entry does not.
	ReplaceRights = fileDeleteChild | deleteRight | writeDAC | writeOwner | genericAll | maximumAllowed
)

// Entry is one access control entry of a DACL.
type Entry struct {
	Allow bool // an allow entry; anything else denies
	SID   string
	Mask  uint32
	// InheritOnly entries do not apply to the folder itself, only to what
	// is created in it.
	InheritOnly bool
}

// Folder is what the decision needs to know about a path, read without
// following a reparse point.
type Folder struct {
	Directory bool
	Reparse   bool // a junction, symbolic link or mount point
	Owner     string
	// NullDACL means the folder has no DACL at all: full access for all.
	NullDACL bool
	DACL     []Entry
}

// Why a path is refused.
var (
	ErrOwner    = errors.New("is not owned by SYSTEM, Administrators or the account the wrapper runs as")
	ErrNullDACL = errors.New("has no DACL, so everyone has full control")
	ErrWritable = errors.New("is writable by an account other than SYSTEM, Administrators and the account the wrapper runs as")
)

// Controlled returns nil when only SYSTEM, Administrators and self own f
// and hold any of rights on it; otherwise ErrOwner, ErrNullDACL or
// ErrWritable, naming who else may.
func Controlled(f Folder, self string, rights uint32) error {
	trusted := func(sid string) bool {
		return sid == System || sid == Administrators || sid == TrustedInstaller || sid == self && self != ""
	}
	switch {
	case !trusted(f.Owner):
		return ErrOwner
	case f.NullDACL:
		return ErrNullDACL
	}
	for _, e := range f.DACL {
		if grants(e, rights) && !trusted(e.SID) {
			return fmt.Errorf("%w: %s", ErrWritable, name(e.SID))
		}
	}
	return nil
}

// grants: an allow entry with one of rights. CREATOR OWNER applies
// only to what its creator creates, and only trustees can create here
// once no one else may write.
func grants(e Entry, rights uint32) bool {
	if !e.Allow || e.Mask&rights == 0 {
		return false
	}
	return !(e.SID == CreatorOwner && e.InheritOnly)
}

func name(sid string) string {
	switch sid {
	case Users:
		return "Users"
	case AuthenticatedUsers:
		return "Authenticated Users"
	case Everyone:
		return "Everyone"
	case Interactive:
		return "INTERACTIVE"
	case CreatorOwner:
		return "CREATOR OWNER"
	}
	return sid
}
