package winacl

import (
	"errors"
	"io/fs"
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// OS is the real file system, read without following a reparse point.
type OS struct{}

func (OS) Self() (string, error) {
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return "", err
	}
	return u.User.Sid.String(), nil
}

// Inspect opens the path itself, a reparse point included, never its
// target.
func (OS) Inspect(path string) (Folder, error) {
	// SYSTEM's backup privilege reads the security of a folder whose
	// owner shut SYSTEM out.
	enablePrivileges("SeBackupPrivilege")
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return Folder{}, err
	}
	h, err := windows.CreateFile(p, windows.READ_CONTROL|windows.FILE_READ_ATTRIBUTES,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil,
		windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return Folder{}, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer windows.CloseHandle(h)
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &info); err != nil {
		return Folder{}, err
	}
	f := Folder{
		Directory: info.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY != 0,
		Reparse:   info.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0,
	}
	sd, err := windows.GetSecurityInfo(h, windows.SE_FILE_OBJECT,
		windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return Folder{}, err
	}
	owner, _, err := sd.Owner()
	if err != nil {
		return Folder{}, err
	}
	f.Owner = owner.String()
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil {
		f.NullDACL = true
		return f, nil
	}
	f.DACL, err = entries(dacl)
	return f, err
}

// entries lists a DACL. An entry of a type other than plain allow or deny
// (object and callback entries) is read as an allow of every right to an
// unknown trustee, so Controlled refuses it.
func entries(dacl *windows.ACL) ([]Entry, error) {
	out := make([]Entry, 0, dacl.AceCount)
	for i := range uint32(dacl.AceCount) {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			return nil, err
		}
		e := Entry{InheritOnly: ace.Header.AceFlags&windows.INHERIT_ONLY_ACE != 0}
		switch ace.Header.AceType {
		case windows.ACCESS_ALLOWED_ACE_TYPE, windows.ACCESS_DENIED_ACE_TYPE:
			e.Allow = ace.Header.AceType == windows.ACCESS_ALLOWED_ACE_TYPE
			e.Mask = uint32(ace.Mask)
			e.SID = (*windows.SID)(unsafe.Pointer(&ace.SidStart)).String()
		default:
			e.Allow, e.Mask, e.SID = true, WriteRights, "an entry of an unknown type"
		}
		out = append(out, e)
	}
	return out, nil
}

// enablePrivileges turns on privileges the process token holds; one it
// lacks is left out, and what needed it then fails on access.
func enablePrivileges(names ...string) {
	var token windows.Token
	if err := windows.OpenProcessToken(windows.CurrentProcess(), windows.TOKEN_ADJUST_PRIVILEGES|windows.TOKEN_QUERY, &token); err != nil {
		return
	}
	defer token.Close()
	for _, name := range names {
		n, err := windows.UTF16PtrFromString(name)
		if err != nil {
			continue
		}
		privs := windows.Tokenprivileges{PrivilegeCount: 1}
		if windows.LookupPrivilegeValue(nil, n, &privs.Privileges[0].Luid) != nil {
			continue
		}
		privs.Privileges[0].Attributes = windows.SE_PRIVILEGE_ENABLED
		windows.AdjustTokenPrivileges(token, false, &privs, 0, nil, nil)
	}
}

// CreatePrivate creates a new file at path (an existing name is removed
// first, as a name) whose security descriptor is PrivateFile: only
// SYSTEM and Administrators may read it.
func CreatePrivate(path string) (*os.File, error) {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, err
	}
	sd, err := windows.SecurityDescriptorFromString(PrivateFile)
	if err != nil {
		return nil, err
	}
	sa := windows.SecurityAttributes{SecurityDescriptor: sd}
	sa.Length = uint32(unsafe.Sizeof(sa))
	h, err := windows.CreateFile(p, windows.GENERIC_READ|windows.GENERIC_WRITE|windows.DELETE, 0, &sa,
		windows.CREATE_NEW, windows.FILE_ATTRIBUTE_NORMAL|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "create", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}
