package report

import (
	"github.com/ctrld-install/ctrld-install/contract"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/winacl"
)

// The record folder under ProgramData is one any user could have made
// first: the runs that write in it (start, install-msi) take it back
// from them, and a reader uses it only when SYSTEM and Administrators
// alone control it.

// recordNames are the wrapper's files in the folder: removed unread when
// a user's folder has to be reset in place.
var recordNames = []string{contract.LastResultFile, contract.PendingResultFile, contract.EvidenceFile, contract.MsiexecLogFile}

// CheckRecordDir makes the record folder, taking it back from whoever
// made it; start runs it before anything else, so a failure is
// WRAPPER_INTERNAL.
func CheckRecordDir(dir string) error { return prepareRecordDir(dir) }

// PrepareRecordDir makes the record folder, or takes it back, before
// anyone writes in it.
func PrepareRecordDir(dir string) error { return prepareRecordDir(dir) }

func prepareRecordDir(dir string) error { return winacl.Claim(winacl.OS{}, dir, recordNames) }

func checkRecordDir(dir string) error { return winacl.Check(winacl.OS{}, dir) }
