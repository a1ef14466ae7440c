package safefile

import (
	"io/fs"
	"os"

	"golang.org/x/sys/windows"
)

// open, with noLinks, opens a reparse point itself instead of its target,
// so notLink can see it and refuse it. CreateFile never waits on a pipe.
func open(path string, noLinks bool) (*os.File, error) {
	attrs := uint32(windows.FILE_ATTRIBUTE_NORMAL)
	if noLinks {
		attrs |= windows.FILE_FLAG_OPEN_REPARSE_POINT
	}
	return createFile(path, windows.GENERIC_READ, windows.OPEN_EXISTING, attrs)
}

// openWrite opens for reading and writing, creating the file when
// missing, and opens a reparse point itself so that notLink refuses it.
// CREATE_NEW fails on anything already there. The ACL is the folder's.
func openWrite(path string, exclusive bool, _ fs.FileMode) (*os.File, error) {
	disposition := uint32(windows.OPEN_ALWAYS)
	if exclusive {
		disposition = windows.CREATE_NEW
	}
	return createFile(path, windows.GENERIC_READ|windows.GENERIC_WRITE, disposition,
		windows.FILE_ATTRIBUTE_NORMAL|windows.FILE_FLAG_OPEN_REPARSE_POINT)
}

func createFile(path string, access, disposition, attrs uint32) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, ErrNotRegular
	}
	h, err := windows.CreateFile(p, access,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, disposition, attrs, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	if t, err := windows.GetFileType(h); err != nil || t != windows.FILE_TYPE_DISK {
		windows.CloseHandle(h)
		return nil, ErrNotRegular
	}
	return os.NewFile(uintptr(h), path), nil
}

// notLink refuses a reparse point (symlink, junction, mount point) when
// links are refused.
func notLink(f *os.File, _ fs.FileInfo, noLinks bool) bool {
	if !noLinks {
		return true
	}
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(windows.Handle(f.Fd()), &info); err != nil {
		return false
	}
	return info.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT == 0
}
