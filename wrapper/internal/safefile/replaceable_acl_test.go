package safefile

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/winacl"
)

const (
	aUser    = "S-1-5-21-1004336348-1177238915-682003330-1001"
	fullCtl  = 0x1f01ff
	readExec = 0x1200a9
	addSub   = 0x4 // FILE_ADD_SUBDIRECTORY
	addFile  = 0x2 // FILE_ADD_FILE
	modify   = 0x1301bf
)

type fakeACLs map[string]winacl.Folder

func (f fakeACLs) Self() (string, error) { return winacl.System, nil }

func (f fakeACLs) Inspect(p string) (winacl.Folder, error) {
	if n, ok := f[p]; ok {
		return n, nil
	}
	return winacl.Folder{}, fs.ErrNotExist
}

func allow(sid string, mask uint32) winacl.Entry {
	return winacl.Entry{Allow: true, SID: sid, Mask: mask}
}

// windowsDisk is a default Windows install: C:\ lets Authenticated Users
// add folders (and modify what they create, inherit-only), Program Files
// belongs to TrustedInstaller, and the MSI made ControlD.
func windowsDisk() fakeACLs {
	admin := []winacl.Entry{allow(winacl.System, fullCtl), allow(winacl.Administrators, fullCtl), allow(winacl.Users, readExec)}
	dir := func(owner string, extra ...winacl.Entry) winacl.Folder {
		return winacl.Folder{Directory: true, Owner: owner, DACL: append(append([]winacl.Entry(nil), admin...), extra...)}
	}
	file := func(owner string, extra ...winacl.Entry) winacl.Folder {
		return winacl.Folder{Owner: owner, DACL: append(append([]winacl.Entry(nil), admin...), extra...)}
	}
	return fakeACLs{
		`C:\`: dir(winacl.System, allow(winacl.AuthenticatedUsers, addSub),
			winacl.Entry{Allow: true, SID: winacl.AuthenticatedUsers, Mask: modify, InheritOnly: true}),
		`C:\Program Files`:                     dir(winacl.TrustedInstaller),
		`C:\Program Files\ControlD`:            dir(winacl.Administrators),
		`C:\Program Files\ControlD\ctrld.exe`:  file(winacl.Administrators),
		`C:\Program Files\ControlD\theirs.exe`: file(aUser),
		`C:\Program Files\ControlD\open.exe`:   file(winacl.Administrators, allow(winacl.Users, modify)),
		`C:\Program Files\ControlD\sub`:        dir(winacl.Administrators),
		`C:\Program Files\ControlD\link`:       {Reparse: true, Owner: winacl.Administrators},
		`C:\Program Files\Planted`:             dir(winacl.Administrators, allow(winacl.Users, addFile)),
		`C:\Program Files\Planted\ctrld.exe`:   file(winacl.Administrators),
		`C:\Tools`:                             dir(aUser, allow(aUser, fullCtl)),
		`C:\Tools\ctrld.exe`:                   file(winacl.Administrators),
		`C:\Shared`:                            dir(winacl.Administrators, allow(winacl.Everyone, 0x40)), // FILE_DELETE_CHILD
		`C:\Shared\Deep`:                       dir(winacl.Administrators),
		`C:\Shared\Deep\ctrld.exe`:             file(winacl.Administrators),
		`C:\Open`:                              dir(winacl.Administrators, allow(winacl.Users, addFile|addSub)),
		`C:\Open\Deep`:                         dir(winacl.Administrators),
		`C:\Open\Deep\ctrld.exe`:               file(winacl.Administrators),
		`C:\Junction`:                          {Directory: true, Reparse: true, Owner: winacl.Administrators},
		`C:\Junction\ctrld.exe`:                file(winacl.Administrators),
	}
}

func TestCheckReplaceableACL(t *testing.T) {
	for path, why := range map[string]string{
		`C:\Program Files\ControlD\ctrld.exe`:   "",
		`C:\Open\Deep\ctrld.exe`:                "", // anyone may add to C:\Open, no one replace Deep
		`C:\Program Files\ControlD\theirs.exe`:  `theirs.exe is not owned by SYSTEM`,
		`C:\Program Files\ControlD\open.exe`:    `open.exe is writable by an account other than SYSTEM, Administrators and the account the wrapper runs as: Users`,
		`C:\Program Files\Planted\ctrld.exe`:    `C:\Program Files\Planted is writable`,
		`C:\Tools\ctrld.exe`:                    `C:\Tools is not owned by SYSTEM`,
		`C:\Shared\Deep\ctrld.exe`:              `C:\Shared is writable by an account other than SYSTEM, Administrators and the account the wrapper runs as: Everyone`,
		`C:\Junction\ctrld.exe`:                 `C:\Junction is a reparse point`,
		`C:\Program Files\ControlD\link`:        `link is a reparse point`,
		`C:\Program Files\ControlD\sub`:         `sub is not a regular file`,
		`C:\Program Files\ControlD\ctrld.exe\x`: `ctrld.exe is not a directory`,
		`Program Files\ControlD\ctrld.exe`:      "is not a full path on a drive",
		`\\server\share\ctrld.exe`:              "is not a full path on a drive",
		`C:\Program Files\..\Tools\ctrld.exe`:   "is not a full path on a drive",
		`C:\`:                                   "is not a full path on a drive",
	} {
		wantRefusal(t, path, CheckReplaceableACL(windowsDisk(), path), why)
	}
	if err := CheckReplaceableACL(windowsDisk(), `C:\Program Files\ControlD\missing.exe`); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}

// wantRefusal: err is nil when why is empty, else ErrReplaceable saying why.
func wantRefusal(t *testing.T, path string, err error, why string) {
	t.Helper()
	if why == "" {
		if err != nil {
			t.Errorf("%s: %v", path, err)
		}
		return
	}
	if !errors.Is(err, ErrReplaceable) || !strings.Contains(err.Error(), why) {
		t.Errorf("%s: got %v, want %q", path, err, why)
	}
}
