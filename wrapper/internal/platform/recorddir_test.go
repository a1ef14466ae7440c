package platform

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/contract"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/winacl"
)

// aclDisk is a Windows file system holding at most the one folder, for
// the record folder's claim.
type aclDisk struct {
	folder *winacl.Folder // nil: nothing there
	// stuck: the folder cannot be moved aside, so it is reset in place.
	stuck bool
	calls []string
}

// aUser is a standard user's SID.
const aUser = "S-1-5-21-1-2-3-1001"

func (d *aclDisk) Self() (string, error) { return winacl.System, nil }

func (d *aclDisk) Create(string) error {
	if d.folder != nil {
		return fs.ErrExist
	}
	d.calls = append(d.calls, "create")
	d.folder = &winacl.Folder{Directory: true, Owner: winacl.System}
	return nil
}

func (d *aclDisk) Inspect(string) (winacl.Folder, error) {
	if d.folder == nil {
		return winacl.Folder{}, fs.ErrNotExist
	}
	return *d.folder, nil
}

func (d *aclDisk) Remove(path string) error {
	d.calls = append(d.calls, "remove "+filepath.Base(path))
	return nil
}

func (d *aclDisk) MoveAside(path string) (string, error) {
	d.calls = append(d.calls, "move aside")
	if d.stuck {
		return "", fs.ErrPermission
	}
	d.folder = nil
	return path + ".old", nil
}

func (d *aclDisk) Reset(_, sddl string) error {
	d.calls = append(d.calls, "reset")
	if sddl == winacl.ProtectedDACL {
		d.folder = &winacl.Folder{Directory: true, Owner: winacl.System}
	}
	return nil
}

// On Windows a record folder a user made first is refused by the check,
// which changes nothing, and taken back by the claim, which writes the
// wrapper's own files off unread when it has to reset the folder in
// place.
func TestWindowsClaimsTheRecordFolderAUserMade(t *testing.T) {
	disk := &aclDisk{folder: &winacl.Folder{Directory: true, Owner: aUser}, stuck: true}
	w := Windows{ACL: disk}
	dir := `C:\ProgramData\ControlD`
	if err := w.CheckRecordDir(dir); !errors.Is(err, winacl.ErrOwner) {
		t.Fatalf("a user's folder was not refused: %v", err)
	}
	if len(disk.calls) != 0 {
		t.Fatalf("the check changed the folder: %q", disk.calls)
	}
	if err := w.ClaimRecordDir(dir); err != nil {
		t.Fatal(err)
	}
	if err := w.CheckRecordDir(dir); err != nil {
		t.Fatalf("the claimed folder is refused: %v", err)
	}
	want := []string{"move aside", "reset"}
	for _, name := range []string{contract.LastResultFile, contract.PendingResultFile, contract.EvidenceFile, contract.MsiexecLogFile} {
		want = append(want, "remove "+name)
	}
	want = append(want, "reset")
	if strings.Join(disk.calls, ";") != strings.Join(want, ";") {
		t.Fatalf("calls %q, want %q", disk.calls, want)
	}
	// A run that writes in a folder not yet there creates it protected.
	fresh := &aclDisk{}
	if err := (Windows{ACL: fresh}).PrepareRecordDir(dir); err != nil || strings.Join(fresh.calls, ";") != "create" {
		t.Fatalf("prepare: %v, calls %q", err, fresh.calls)
	}
}
