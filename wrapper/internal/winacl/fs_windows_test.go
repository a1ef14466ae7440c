package winacl

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// What ProtectedDACL and PrivateFile grant, read back from the disk.
var (
	protectedEntries = []Entry{
		{Allow: true, SID: System, Mask: 0x1f01ff},
		{Allow: true, SID: Administrators, Mask: 0x1f01ff},
		{Allow: true, SID: Users, Mask: 0x1200a9},
	}
	privateEntries = []Entry{
		{Allow: true, SID: System, Mask: 0x1f01ff},
		{Allow: true, SID: Administrators, Mask: 0x1f01ff},
	}
)

// The folder Create makes does not inherit the ACL of the folder it is
// made in (ProgramData lets users create there): only what ProtectedDACL
// grants applies to it.
func TestCreateMakesAProtectedFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "records")
	if err := (OS{}).Create(dir); err != nil {
		t.Fatal(err)
	}
	f, err := (OS{}).Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Directory || f.Reparse || f.NullDACL {
		t.Fatalf("got %+v, want a plain folder with a DACL", f)
	}
	if got := applying(f.DACL); !slices.Equal(got, protectedEntries) {
		t.Errorf("DACL %+v, want %+v", got, protectedEntries)
	}
	if err := Check(OS{}, dir); err != nil {
		t.Errorf("the folder Create made is refused: %v", err)
	}
}

func TestCreateRefusesAnExistingFolder(t *testing.T) {
	dir := t.TempDir()
	if err := (OS{}).Create(dir); !errors.Is(err, os.ErrExist) {
		t.Fatalf("got %v, want an error matching os.ErrExist", err)
	}
}

// A file CreatePrivate made is readable by SYSTEM and Administrators only,
// whatever the folder it is in would have given it.
func TestCreatePrivateGrantsOnlySystemAndAdministrators(t *testing.T) {
	path := filepath.Join(t.TempDir(), "evidence.json")
	os.WriteFile(path, []byte("old"), 0o644)
	file, err := CreatePrivate(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := file.WriteString("new"); err != nil {
		t.Fatal(err)
	}
	file.Close()
	if data, _ := os.ReadFile(path); string(data) != "new" {
		t.Fatalf("file holds %q, want the new content", data)
	}
	f, err := (OS{}).Inspect(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Directory || f.NullDACL {
		t.Fatalf("got %+v, want a file with a DACL", f)
	}
	if got := applying(f.DACL); !slices.Equal(got, privateEntries) {
		t.Errorf("DACL %+v, want %+v", got, privateEntries)
	}
}

// applying leaves out the entries that only flow down to what a folder
// holds.
func applying(dacl []Entry) []Entry {
	var out []Entry
	for _, e := range dacl {
		if !e.InheritOnly {
			out = append(out, e)
		}
	}
	return out
}
