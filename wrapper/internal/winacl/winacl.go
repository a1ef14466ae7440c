// Package winacl decides whether SYSTEM may use a folder that standard
// users might have prepared: %ProgramData%\ControlD, which holds the
// last-result record. ProgramData lets any user create a folder in it, so
// the folder the wrapper finds may be a user's, or a junction to somewhere
// else. Whether to use it, and how to take it back when not (Claim), is
// plain logic over a folder's facts, tested on any OS; reading those
// facts and changing the folder live in the Windows file.
//
// The record stays in a folder, not under HKLM: msiexec's verbose log
// needs a folder only administrators can read anyway, the Intune
// detection script, install-msi and the Wine tier read the record there,
// and it survives an MSI rollback because the MSI does not own the
// folder. One protected folder that SYSTEM takes back from whoever made
// it first (see Claim) keeps the record, its evidence and the log in one
// place.
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

// ProtectedDACL is the folder's security descriptor as created: SYSTEM
// and Administrators full control, Users read, for the folder and all it
// holds, not inheriting from ProgramData (whose ACL lets users create).
const ProtectedDACL = "O:BAD:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;0x1200a9;;;BU)"

// HeldDACL is a folder being reset in place: SYSTEM and Administrators
// alone have access, and an entry for CREATOR OWNER on the folder itself
// (which matches no account, so grants nothing) makes Judge refuse it
// until the reset is done.
const HeldDACL = "O:BAD:P(A;;FA;;;SY)(A;;FA;;;BA)(A;;FA;;;CO)"

// PrivateFile is the security descriptor of the files only SYSTEM and
// Administrators may read: the evidence copy and msiexec's verbose log.
// It is protected, so the folder's read entry for Users does not reach
// them.
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

// Why a folder is refused.
var (
	ErrReparsePoint = errors.New("is a reparse point (junction or link)")
	ErrNotDirectory = errors.New("is not a directory")
	ErrOwner        = errors.New("is not owned by SYSTEM, Administrators or the account the wrapper runs as")
	ErrNullDACL     = errors.New("has no DACL, so everyone has full control")
	ErrWritable     = errors.New("is writable by an account other than SYSTEM, Administrators and the account the wrapper runs as")
)

// Judge returns nil when the folder is under the control of SYSTEM,
// Administrators and self (the account the wrapper runs as: SYSTEM under
// an MSI, an administrator running install-msi, the Wine user in tests)
// and of no one else; otherwise an error matching one of the Err values
// above. Self can already do all the wrapper does, so trusting it gives
// nothing away, and a folder a standard user made is refused whenever
// SYSTEM runs. Deny entries are not weighed: a folder that only a deny
// entry protects is refused, to err on the safe side.
func Judge(f Folder, self string) error {
	switch {
	case f.Reparse:
		return ErrReparsePoint
	case !f.Directory:
		return ErrNotDirectory
	}
	return Controlled(f, self, WriteRights)
}

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

// FS is the little of the file system the folder needs; the Windows
// implementation never follows a reparse point.
type FS interface {
	// Create makes the folder with ProtectedDACL, in one step;
	// fs.ErrExist when the path exists.
	Create(path string) error
	// Inspect reads the facts of what is at path; fs.ErrNotExist when
	// nothing is.
	Inspect(path string) (Folder, error)
	// Self is the SID of the account the process runs as.
	Self() (string, error)
}

// Check accepts an existing folder only when Judge does.
func Check(fsys FS, path string) error {
	self, err := fsys.Self()
	if err != nil {
		return err
	}
	f, err := fsys.Inspect(path)
	if err != nil {
		return err
	}
	return Judge(f, self)
}
