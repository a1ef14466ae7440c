package release

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Dist builds the wanted kinds into cfg.Out, with SHA256SUMS and
// manifest.json. Each kind needs only the platforms it packages.
func Dist(cfg Config) ([]Artifact, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	kinds := cfg.wantedKinds()
	if cfg.Demo() {
		cfg.progress("DEMO BUILD: no ctrld binaries or release archives given, packaging the demo ctrld from testdata/fakectrld")
	}
	staged, err := cfg.stage(platformsOfKinds(kinds))
	if err != nil {
		return nil, err
	}
	arts, err := fanOut(cfg.jobs(kinds, staged), cfg.runJob)
	if err != nil {
		return nil, err
	}
	sort.Slice(arts, func(i, j int) bool { return arts[i].Name < arts[j].Name })
	if err := writeSums(cfg.Out, arts); err != nil {
		return nil, err
	}
	if err := writeManifest(cfg.Out, cfg, arts); err != nil {
		return nil, err
	}
	if cfg.Demo() {
		cfg.progress("DEMO BUILD: these artifacts carry the demo ctrld, not a real one")
	}
	return arts, nil
}

func (c Config) wantedKinds() []Kind {
	var kinds []Kind
	for _, k := range Kinds {
		if c.wants(k.Name) {
			kinds = append(kinds, k)
		}
	}
	return kinds
}

// platformsOfKinds is every platform the kinds package, in Platforms order.
func platformsOfKinds(kinds []Kind) []Platform {
	var ps []Platform
	for _, p := range Platforms {
		for _, k := range kinds {
			if slices.Contains(k.Platforms, p) && !slices.Contains(ps, p) {
				ps = append(ps, p)
			}
		}
	}
	return ps
}

func writeSums(out string, arts []Artifact) error {
	var b strings.Builder
	for _, a := range arts {
		fmt.Fprintf(&b, "%s  %s\n", a.SHA256, a.Name)
	}
	return os.WriteFile(filepath.Join(out, "SHA256SUMS"), []byte(b.String()), 0o644)
}

// Manifest is manifest.json: what the release holds, for machines.
type Manifest struct {
	Version string `json:"version"`
	Demo    bool   `json:"demo"`
	// Line is the ctrld line the release packages: its binary's name.
	Line      string     `json:"line"`
	Artifacts []Artifact `json:"artifacts"`
}

func writeManifest(out string, cfg Config, arts []Artifact) error {
	data, err := json.MarshalIndent(Manifest{Version: cfg.Version, Demo: cfg.Demo(), Line: cfg.Line, Artifacts: arts}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "manifest.json"), append(data, '\n'), 0o644)
}
