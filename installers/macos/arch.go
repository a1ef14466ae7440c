package macos

import (
	"debug/macho"
	"fmt"
	"sort"
	"strings"
)

// hostArchitectures lists the architectures every binary in the payload
// supports, for Distribution's hostArchitectures: without arm64 there,
// Installer on Apple silicon asks for Rosetta.
func hostArchitectures(tree []entry) (string, error) {
	var common map[string]bool
	for _, e := range tree {
		if !e.isFile() {
			continue
		}
		arches, err := archesOf(e.source)
		if err != nil {
			return "", fmt.Errorf("%s: %w", e.name, err)
		}
		if common == nil {
			common = arches
			continue
		}
		for a := range common {
			if !arches[a] {
				delete(common, a)
			}
		}
	}
	var out []string
	for a := range common {
		out = append(out, a)
	}
	sort.Strings(out)
	if len(out) == 0 {
		return "", fmt.Errorf("the binaries share no architecture")
	}
	return strings.Join(out, ","), nil
}

func archesOf(path string) (map[string]bool, error) {
	names := map[macho.Cpu]string{macho.CpuAmd64: "x86_64", macho.CpuArm64: "arm64"}
	out := map[string]bool{}
	if fat, err := macho.OpenFat(path); err == nil {
		defer fat.Close()
		for _, a := range fat.Arches {
			out[names[a.Cpu]] = true
		}
	} else {
		f, err := macho.Open(path)
		if err != nil {
			return nil, fmt.Errorf("not a Mach-O binary: %w", err)
		}
		defer f.Close()
		out[names[f.Cpu]] = true
	}
	delete(out, "")
	return out, nil
}
