package winacl

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
)

// A standard user can create the folder before the first install, or
// after an uninstall, as a folder of their own, a file, or a junction to
// anywhere. Refusing it would make every install fail for good; SYSTEM
// takes the path back instead, never following a link and never reading
// what the user left:
//
//   - a reparse point (junction, symbolic link, mount point) is removed
//     as a link;
//   - anything else untrusted is moved aside, under a fresh unguessable
//     name beside it, to the user who made it;
//   - a folder that cannot be moved (a user's process holds something in
//     it open) is reset in place: first held (HeldDACL and Administrators
//     as owner, in one step, so the user can no longer change anything,
//     while Judge still refuses it and no reader trusts it), then the
//     names the wrapper uses are removed as names (a link is never
//     followed), and only then given ProtectedDACL.
//
// Then the folder is made afresh with the protected DACL, or accepted.

// ErrContested means the path was taken back and replaced again, round
// after round: someone keeps racing the wrapper for it.
var ErrContested = errors.New("was replaced again each time it was taken back")

// maxClaimRounds bounds the take-backs of one claim.
const maxClaimRounds = 4

// Claimer is the file system a claim needs beyond FS.
type Claimer interface {
	FS
	// MoveAside renames what is at path to a fresh name in the same
	// folder, without opening it, and returns that name.
	MoveAside(path string) (string, error)
	// Reset gives the folder at path the owner and protected DACL of the
	// security descriptor sddl, in one step.
	Reset(path, sddl string) error
	// Remove removes the name at path: a file, an empty folder or a
	// reparse point itself, never what a link points at; fs.ErrNotExist
	// when nothing is there.
	Remove(path string) error
}

// Claim makes path the wrapper's folder: created with ProtectedDACL, or
// one Judge accepts, or else taken back from whoever made it. names are
// the wrapper's files in it, removed unread when the folder is reset in
// place.
func Claim(c Claimer, path string, names []string) error {
	self, err := c.Self()
	if err != nil {
		return err
	}
	for range maxClaimRounds {
		err := c.Create(path)
		if err == nil || !errors.Is(err, fs.ErrExist) {
			return err
		}
		f, err := c.Inspect(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case errors.Is(err, fs.ErrPermission):
			// Its owner shut SYSTEM out: nothing is known of it but
			// that it is not ours. It can still be moved aside, or, as a
			// folder (Reset checks), reset.
			f = Folder{Directory: true}
		case err != nil:
			return err
		}
		refused := Judge(f, self)
		if refused == nil {
			return nil
		}
		if err := takeBack(c, path, f, names); err != nil {
			return fmt.Errorf("%w, and taking it back failed: %v", refused, err)
		}
	}
	return ErrContested
}

// takeBack frees path of what Judge refused there.
func takeBack(c Claimer, path string, f Folder, names []string) error {
	// A link that will not go as a link (swapped for a folder with
	// something in it since it was inspected) is moved aside like the rest.
	if f.Reparse && c.Remove(path) == nil {
		return nil
	}
	_, moveErr := c.MoveAside(path)
	if moveErr == nil || !f.Directory {
		return moveErr
	}
	return reset(c, path, names)
}

// reset makes the folder at path the wrapper's in place.
func reset(c Claimer, path string, names []string) error {
	if err := c.Reset(path, HeldDACL); err != nil {
		return err
	}
	for _, n := range names {
		if err := c.Remove(filepath.Join(path, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return c.Reset(path, ProtectedDACL)
}
