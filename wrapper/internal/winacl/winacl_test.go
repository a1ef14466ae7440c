package winacl

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const aUser = "S-1-5-21-1004336348-1177238915-682003330-1001"

// programDataInherited is what a folder a standard user creates in
// ProgramData gets: it is theirs, and ProgramData's entries flow down.
func programDataInherited() Folder {
	return Folder{Directory: true, Owner: aUser, DACL: []Entry{
		{Allow: true, SID: System, Mask: 0x1f01ff},
		{Allow: true, SID: Administrators, Mask: 0x1f01ff},
		{Allow: true, SID: aUser, Mask: 0x1f01ff},
		{Allow: true, SID: Users, Mask: 0x1200a9},
		{Allow: true, SID: Users, Mask: fileAddFile | fileAddSubdirectory},
	}}
}

// parseSDDL reads the owner and the (A;flags;rights;;;trustee) entries
// of a protected SDDL string, enough to judge a descriptor as Windows
// would build it. It panics on anything else: the strings are constants.
func parseSDDL(sddl string) Folder {
	aliases := map[string]string{"SY": System, "BA": Administrators, "BU": Users, "WD": Everyone, "AU": AuthenticatedUsers, "CO": CreatorOwner}
	rights := map[string]uint32{"FA": 0x1f01ff, "FR": 0x120089}
	owner := regexp.MustCompile(`^O:([A-Z]{2})D:P\(`).FindStringSubmatch(sddl)
	if owner == nil {
		panic(sddl + ": no owner or not protected")
	}
	f := Folder{Directory: true, Owner: aliases[owner[1]]}
	entry := regexp.MustCompile(`\(([AD]);([A-Z]*);([^;]+);;;([A-Z]{2})\)`)
	if rest := entry.ReplaceAllString(sddl[len(owner[0])-1:], ""); rest != "" {
		panic(sddl + ": unread " + rest)
	}
	for _, m := range entry.FindAllStringSubmatch(sddl, -1) {
		mask, ok := rights[m[3]]
		if !ok {
			n, err := strconv.ParseUint(strings.TrimPrefix(m[3], "0x"), 16, 32)
			if err != nil {
				panic(sddl + ": rights " + m[3])
			}
			mask = uint32(n)
		}
		f.DACL = append(f.DACL, Entry{Allow: m[1] == "A", SID: aliases[m[4]], Mask: mask, InheritOnly: strings.Contains(m[2], "IO")})
	}
	return f
}

// adminsOnly is a folder as the installers make them: SYSTEM and
// Administrators full control, Users read and execute.
const adminsOnly = "O:BAD:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;0x1200a9;;;BU)"

func TestControlled(t *testing.T) {
	created := parseSDDL(adminsOnly)
	with := func(f Folder, change func(*Folder)) Folder {
		f.DACL = append([]Entry(nil), f.DACL...)
		change(&f)
		return f
	}
	for name, tc := range map[string]struct {
		f    Folder
		want error
	}{
		"as created":             {created, nil},
		"owned by SYSTEM":        {with(created, func(f *Folder) { f.Owner = System }), nil},
		"a user's folder":        {programDataInherited(), ErrOwner},
		"a user's, given to BA":  {with(programDataInherited(), func(f *Folder) { f.Owner = Administrators }), ErrWritable},
		"no DACL":                {with(created, func(f *Folder) { f.NullDACL, f.DACL = true, nil }), ErrNullDACL},
		"Users may add files":    {with(created, func(f *Folder) { f.DACL[2].Mask |= fileAddFile }), ErrWritable},
		"Users may delete child": {with(created, func(f *Folder) { f.DACL[2].Mask |= fileDeleteChild }), ErrWritable},
		"Everyone may append": {with(created, func(f *Folder) {
			f.DACL = append(f.DACL, Entry{Allow: true, SID: Everyone, Mask: fileAddSubdirectory})
		}), ErrWritable},
		"INTERACTIVE may rewrite the DACL": {with(created, func(f *Folder) {
			f.DACL = append(f.DACL, Entry{Allow: true, SID: Interactive, Mask: writeDAC})
		}), ErrWritable},
		"Authenticated Users, inherit-only write": {with(created, func(f *Folder) {
			f.DACL = append(f.DACL, Entry{Allow: true, SID: AuthenticatedUsers, Mask: genericWrite, InheritOnly: true})
		}), ErrWritable},
		"a user's own SID may write": {with(created, func(f *Folder) {
			f.DACL = append(f.DACL, Entry{Allow: true, SID: aUser, Mask: 0x1f01ff})
		}), ErrWritable},
		"CREATOR OWNER, inherit-only": {with(created, func(f *Folder) {
			f.DACL = append(f.DACL, Entry{Allow: true, SID: CreatorOwner, Mask: genericAll, InheritOnly: true})
		}), nil},
		"CREATOR OWNER on the folder itself": {with(created, func(f *Folder) {
			f.DACL = append(f.DACL, Entry{Allow: true, SID: CreatorOwner, Mask: genericAll})
		}), ErrWritable},
		"a deny entry does not vouch": {with(created, func(f *Folder) {
			f.DACL = append(f.DACL, Entry{Allow: false, SID: Users, Mask: WriteRights}, Entry{Allow: true, SID: Users, Mask: fileAddFile})
		}), ErrWritable},
		"Users read and execute only": {with(created, func(f *Folder) { f.DACL[2].Mask = 0x1200a9 }), nil},
	} {
		t.Run(name, func(t *testing.T) {
			err := Controlled(tc.f, System, WriteRights)
			if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

// The account the wrapper runs as may own and write the folder: it can do
// all the wrapper does anyway. Anyone else may not, however the folder
// came to be.
func TestControlledTrustsOnlySelfBeyondSystemAndAdministrators(t *testing.T) {
	wine := Folder{Directory: true, Owner: aUser, DACL: []Entry{
		{Allow: true, SID: System, Mask: 0x1f01ff},
		{Allow: true, SID: aUser, Mask: 0x1f01ff},
		{Allow: true, SID: Everyone, Mask: 0x1200a9},
	}}
	if err := Controlled(wine, aUser, WriteRights); err != nil {
		t.Fatalf("own folder refused: %v", err)
	}
	if err := Controlled(wine, System, WriteRights); !errors.Is(err, ErrOwner) {
		t.Fatalf("SYSTEM trusted a user's folder: %v", err)
	}
	if err := Controlled(programDataInherited(), aUser, WriteRights); !errors.Is(err, ErrWritable) {
		t.Fatalf("Users may add files, yet: %v", err)
	}
	if err := Controlled(Folder{Directory: true, Owner: ""}, "", WriteRights); !errors.Is(err, ErrOwner) {
		t.Fatalf("an unknown self made an unowned folder trusted: %v", err)
	}
}

func TestControlledNamesWhoMayWrite(t *testing.T) {
	err := Controlled(programDataInheritedOwnedBy(Administrators), System, WriteRights)
	if err == nil || !strings.Contains(err.Error(), aUser) {
		t.Fatalf("%v does not name the account", err)
	}
}

func programDataInheritedOwnedBy(owner string) Folder {
	f := programDataInherited()
	f.Owner = owner
	return f
}

// The evidence copy and msiexec's log: SYSTEM and Administrators only,
// protected, so the record folder's read entry for Users does not flow in.
func TestPrivateFileIsForSystemAndAdministratorsOnly(t *testing.T) {
	f := parseSDDL(PrivateFile)
	got := map[string]bool{}
	for _, e := range f.DACL {
		if !e.Allow || e.InheritOnly {
			t.Fatalf("entry %+v", e)
		}
		got[e.SID] = true
	}
	if len(got) != 2 || !got[System] || !got[Administrators] {
		t.Fatalf("PrivateFile grants %v", got)
	}
	if f.Owner != Administrators {
		t.Fatalf("owner %s", f.Owner)
	}
}
