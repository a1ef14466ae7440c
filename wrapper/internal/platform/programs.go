package platform

import "io/fs"

// What makes a file a program the wrapper may run, on each OS.

// windowsProgramSuffix ends every program's file name on Windows.
const windowsProgramSuffix = ".exe"

func (Linux) Runnable(info fs.FileInfo) bool  { return hasExecuteBit(info) }
func (Darwin) Runnable(info fs.FileInfo) bool { return hasExecuteBit(info) }

// Runnable on Windows: there is no execute bit; a regular file is enough.
func (Windows) Runnable(fs.FileInfo) bool { return true }

func (Linux) ProgramFile(name string) string   { return name }
func (Darwin) ProgramFile(name string) string  { return name }
func (Windows) ProgramFile(name string) string { return name + windowsProgramSuffix }

func hasExecuteBit(info fs.FileInfo) bool { return info.Mode().Perm()&0o111 != 0 }
