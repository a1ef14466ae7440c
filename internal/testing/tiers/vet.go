package tiers

import (
	"slices"

	"github.com/ctrld-install/ctrld-install/internal/release"
)

// Vet runs go vet for every OS the release ships, the demo ctrld in
// testdata included.
func Vet() error { return runAll(vetCommands()) }

// demoCtrld is named because ./... skips testdata folders.
const demoCtrld = "./testdata/fakectrld"

func vetCommands() []Command {
	var cmds []Command
	for _, goos := range releaseOSes() {
		cmds = append(cmds, Command{Env: []string{"GOOS=" + goos}, Args: []string{"vet", "./...", demoCtrld}})
	}
	return cmds
}

// releaseOSes are the OSes of release.Kinds, in their order.
func releaseOSes() []string {
	var oses []string
	for _, k := range release.Kinds {
		if !slices.Contains(oses, k.OS) {
			oses = append(oses, k.OS)
		}
	}
	return oses
}
