package winacl

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// What PrivateFile grants, read back from the disk.
var (
	privateEntries = []Entry{
		{Allow: true, SID: System, Mask: 0x1f01ff},
		{Allow: true, SID: Administrators, Mask: 0x1f01ff},
	}
)

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
