package release

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Dist builds the whole release into cfg.Out.
func Dist(cfg Config) ([]Artifact, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.wants("msi") {
		if err := CheckTools(cfg.Signing); err != nil {
			return nil, err
		}
	}
	if cfg.Demo() {
		cfg.progress("DEMO BUILD: no ctrld binaries or release archives given, packaging the demo ctrld from testdata/fakectrld")
	}
	ctrld, err := cfg.stageCtrld()
	if err != nil {
		return nil, err
	}
	if cfg.Version == "" {
		return nil, fmt.Errorf("no version: set VERSION, build from a git checkout, or give release archives")
	}
	if err := cfg.buildWrappers(); err != nil {
		return nil, err
	}
	jobs, err := cfg.jobs(ctrld)
	if err != nil || len(jobs) == 0 {
		return nil, err
	}
	arts, err := cfg.runJobs(jobs)
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

func writeSums(out string, arts []Artifact) error {
	var b strings.Builder
	for _, a := range arts {
		fmt.Fprintf(&b, "%s  %s\n", a.SHA256, a.Name)
	}
	return os.WriteFile(filepath.Join(out, "SHA256SUMS"), []byte(b.String()), 0o644)
}

// Manifest is manifest.json: what the release holds, for machines.
type Manifest struct {
	Version   string     `json:"version"`
	Demo      bool       `json:"demo"`
	Artifacts []Artifact `json:"artifacts"`
}

func writeManifest(out string, cfg Config, arts []Artifact) error {
	data, err := json.MarshalIndent(Manifest{Version: cfg.Version, Demo: cfg.Demo(), Artifacts: arts}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "manifest.json"), append(data, '\n'), 0o644)
}
