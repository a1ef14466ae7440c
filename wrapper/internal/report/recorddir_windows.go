package report

import "github.com/ctrld-install/ctrld-install/wrapper/internal/winacl"

// The record folder under ProgramData is one any user could have made
// first: it is created with a protected DACL, or used only when SYSTEM and
// Administrators alone control it.

// CheckRecordDir makes the record folder or refuses the one there; start
// runs it before anything else, so a refusal is WRAPPER_INTERNAL.
func CheckRecordDir(dir string) error { return winacl.Ensure(winacl.OS{}, dir) }

// PrepareRecordDir makes the record folder, or accepts the one there,
// before anyone writes in it.
func PrepareRecordDir(dir string) error { return prepareRecordDir(dir) }

func prepareRecordDir(dir string) error { return winacl.Ensure(winacl.OS{}, dir) }

func checkRecordDir(dir string) error { return winacl.Check(winacl.OS{}, dir) }
