//go:build darwin || (linux && simulate_darwin)

package platform

// Current is the platform the wrapper runs on.
//
// The simulate_darwin tag builds a Linux binary with the macOS behaviour
// (managed preferences, launchd plist gate, launchctl reload), so tests
// can run the pkg's postinstall in a chroot laid out like a Mac. Release
// builds never set it.
func Current() OS { return Darwin{Run: execRunner} }
