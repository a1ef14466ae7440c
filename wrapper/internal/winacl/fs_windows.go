package winacl

import (
	"io/fs"
	"unsafe"

	"golang.org/x/sys/windows"
)

// OS is the real file system.
type OS struct{}

func (OS) Create(path string) error {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return err
	}
	sd, err := windows.SecurityDescriptorFromString(ProtectedDACL)
	if err != nil {
		return err
	}
	sa := windows.SecurityAttributes{SecurityDescriptor: sd}
	sa.Length = uint32(unsafe.Sizeof(sa))
	if err := windows.CreateDirectory(p, &sa); err != nil {
		return &fs.PathError{Op: "mkdir", Path: path, Err: err}
	}
	return nil
}

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
// unknown trustee, so Judge refuses it.
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
			e.Allow, e.Mask, e.SID = true, writeRights, "an entry of an unknown type"
		}
		out = append(out, e)
	}
	return out, nil
}
