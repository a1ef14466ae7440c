package windows

import "fmt"

// Architectures the MSI is built for; they name the file.
const (
	ArchX64   = "x64"
	ArchArm64 = "arm64"
	ArchX86   = "x86"
)

// Archs lists them in release order.
var Archs = []string{ArchX64, ArchArm64, ArchX86}

// platform holds what differs between the architectures' packages.
type platform struct {
	// template is the summary Template: the platform Windows Installer
	// checks before it processes the package, then the languages.
	template string
	// pageCount is the minimum Windows Installer version × 100. Arm64
	// packages must say at least 500 (with 200, Windows refuses to open
	// them); 500 (Windows 7 and later) serves all three.
	pageCount int
	// componentBits are the Component.Attributes every component carries:
	// msidbComponentAttributes64bit in a 64-bit package.
	componentBits int
	// programFiles and systemFolder are the directory properties of the
	// package's bitness.
	programFiles, systemFolder string
}

const component64bit = 0x0100

var platforms = map[string]platform{
	ArchX64:   {"x64;1033", 500, component64bit, "ProgramFiles64Folder", "System64Folder"},
	ArchArm64: {"Arm64;1033", 500, component64bit, "ProgramFiles64Folder", "System64Folder"},
	ArchX86:   {"Intel;1033", 500, 0, "ProgramFilesFolder", "SystemFolder"},
}

func platformOf(arch string) (platform, error) {
	p, ok := platforms[arch]
	if !ok {
		return p, fmt.Errorf("msi: arch %q: want %s, %s or %s", arch, ArchX64, ArchArm64, ArchX86)
	}
	return p, nil
}
