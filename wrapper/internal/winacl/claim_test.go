package winacl

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// dataDir is joined as this OS joins it, as Claim joins the names in it.
var dataDir = filepath.Join("C:", "ProgramData", "ControlD")

// fakeDisk is ProgramData as the claim sees it: what is at each path,
// and a log of every change the claim makes. It never models reading a
// file: a claim has no way to read one.
type fakeDisk struct {
	at map[string]Folder
	// stuck: moving the folder aside fails (a user's process holds a file
	// in it open).
	stuck bool
	// full: what is at the path is a folder with something in it now.
	full map[string]bool
	// shut: the owner of what is at the path let no one else read it.
	shut map[string]bool
	// replant runs after each change, as a user racing the claim would.
	replant func(d *fakeDisk)
	ops     []string
	asides  int
}

func newDisk(at map[string]Folder) *fakeDisk { return &fakeDisk{at: at} }

func (d *fakeDisk) done(op string) {
	d.ops = append(d.ops, op)
	if d.replant != nil {
		d.replant(d)
	}
}

func (d *fakeDisk) Self() (string, error) { return System, nil }

func (d *fakeDisk) Create(path string) error {
	if _, ok := d.at[path]; ok {
		return fs.ErrExist
	}
	d.at[path] = created()
	d.done("create")
	return nil
}

func (d *fakeDisk) Inspect(path string) (Folder, error) {
	if d.shut[path] {
		return Folder{}, fs.ErrPermission
	}
	f, ok := d.at[path]
	if !ok {
		return Folder{}, fs.ErrNotExist
	}
	return f, nil
}

func (d *fakeDisk) Remove(path string) error {
	if _, ok := d.at[path]; !ok {
		return fs.ErrNotExist
	}
	if d.full[path] {
		return fs.ErrPermission
	}
	delete(d.at, path)
	d.done("remove " + filepath.Base(path))
	return nil
}

func (d *fakeDisk) MoveAside(path string) (string, error) {
	if d.stuck {
		return "", fs.ErrPermission
	}
	d.asides++
	aside := path + ".untrusted-" + strings.Repeat("x", d.asides)
	d.at[aside] = d.at[path]
	delete(d.at, path)
	delete(d.shut, path)
	delete(d.full, path)
	d.done("move aside")
	return aside, nil
}

func (d *fakeDisk) Reset(path, sddl string) error {
	f := d.at[path]
	if f.Reparse || !f.Directory {
		return ErrReparsePoint
	}
	d.at[path] = parseSDDL(sddl)
	delete(d.shut, path)
	d.done("reset " + sddl)
	return nil
}

// created is the folder as Create makes it.
func created() Folder { return parseSDDL(ProtectedDACL) }

func TestClaim(t *testing.T) {
	names := []string{"last", "evidence"}
	planted := func() Folder { return programDataInherited() }
	for name, tc := range map[string]struct {
		disk    *fakeDisk
		ops     []string
		wantErr error
	}{
		"nothing there":  {disk: newDisk(map[string]Folder{}), ops: []string{"create"}},
		"our own folder": {disk: newDisk(map[string]Folder{dataDir: created()}), ops: nil},
		"a user's folder is moved aside": {
			disk: newDisk(map[string]Folder{dataDir: planted()}),
			ops:  []string{"move aside", "create"},
		},
		"a junction is removed as a link": {
			disk: newDisk(map[string]Folder{dataDir: {Reparse: true, Directory: true, Owner: aUser}}),
			ops:  []string{"remove ControlD", "create"},
		},
		"a junction owned by Administrators is removed too": {
			disk: newDisk(map[string]Folder{dataDir: {Reparse: true, Directory: true, Owner: Administrators}}),
			ops:  []string{"remove ControlD", "create"},
		},
		"a junction swapped for a full folder is moved aside": {
			disk: &fakeDisk{at: map[string]Folder{dataDir: {Reparse: true, Directory: true, Owner: aUser}}, full: map[string]bool{dataDir: true}},
			ops:  []string{"move aside", "create"},
		},
		"a file is moved aside": {
			disk: newDisk(map[string]Folder{dataDir: {Owner: aUser}}),
			ops:  []string{"move aside", "create"},
		},
		"a folder held open is held, cleared of our names, then protected": {
			disk: &fakeDisk{at: map[string]Folder{dataDir: planted(), filepath.Join(dataDir, "last"): {Owner: aUser}, filepath.Join(dataDir, "theirs"): {Owner: aUser}}, stuck: true},
			ops:  []string{"reset " + HeldDACL, "remove last", "reset " + ProtectedDACL},
		},
		"a folder its owner shut SYSTEM out of is moved aside": {
			disk: &fakeDisk{at: map[string]Folder{dataDir: planted()}, shut: map[string]bool{dataDir: true}},
			ops:  []string{"move aside", "create"},
		},
		"a folder its owner shut SYSTEM out of, held open, is reset": {
			disk: &fakeDisk{at: map[string]Folder{dataDir: planted()}, shut: map[string]bool{dataDir: true}, stuck: true},
			ops:  []string{"reset " + HeldDACL, "reset " + ProtectedDACL},
		},
		"a file its owner shut SYSTEM out of, held open, is refused": {
			disk:    &fakeDisk{at: map[string]Folder{dataDir: {Owner: aUser}}, shut: map[string]bool{dataDir: true}, stuck: true},
			ops:     nil,
			wantErr: ErrOwner,
		},
		"a file that cannot be moved is refused": {
			disk:    &fakeDisk{at: map[string]Folder{dataDir: {Owner: aUser}}, stuck: true},
			ops:     nil,
			wantErr: ErrNotDirectory,
		},
		"a user who keeps planting is refused, in bounded rounds": {
			disk: &fakeDisk{at: map[string]Folder{dataDir: planted()}, replant: func(d *fakeDisk) {
				if _, ok := d.at[dataDir]; !ok {
					d.at[dataDir] = programDataInherited()
				}
			}},
			ops:     []string{"move aside", "move aside", "move aside", "move aside"},
			wantErr: ErrContested,
		},
	} {
		t.Run(name, func(t *testing.T) {
			err := Claim(tc.disk, dataDir, names)
			if tc.wantErr == nil && err != nil || tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Fatalf("got %v, want %v", err, tc.wantErr)
			}
			if strings.Join(tc.disk.ops, "; ") != strings.Join(tc.ops, "; ") {
				t.Fatalf("did %q, want %q", tc.disk.ops, tc.ops)
			}
			if tc.wantErr != nil {
				return
			}
			if err := Judge(tc.disk.at[dataDir], System); err != nil {
				t.Fatalf("the claimed folder is not trusted: %v", err)
			}
			if _, ok := tc.disk.at[dataDir+`\last`]; ok {
				t.Fatal("a record the user planted is still there")
			}
		})
	}
}

// While a folder is held, nothing trusts it: a reader cannot take the
// user's record for ours between the hold and the clearing.
func TestAHeldFolderIsNotTrustedButClosedToUsers(t *testing.T) {
	held := parseSDDL(HeldDACL)
	if err := Judge(held, System); !errors.Is(err, ErrWritable) {
		t.Fatalf("a held folder is judged %v", err)
	}
	for _, e := range held.DACL {
		if e.SID != System && e.SID != Administrators && e.SID != CreatorOwner {
			t.Fatalf("a held folder grants %s", e.SID)
		}
	}
}
