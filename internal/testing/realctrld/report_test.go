package realctrld

import "time"

// Report is what a scenario saw, written inside and judged on the host.
type Report struct {
	Steps []Step
	// Snapshots are the state of named paths at points the scenario chose.
	Snapshots []Snapshot
	// Processes alive in the namespace when the scenario ended.
	Processes []Process
	// ProcessSnapshots are the processes at points the scenario chose.
	ProcessSnapshots map[string][]Process
	Syslog           []string
	API              []APIRequest
	// PidNamespace is the scenario's pid namespace inode, so the host can
	// check that nothing of it outlived the scenario.
	PidNamespace uint64
	Error        string
}

// Step is one command the scenario ran.
type Step struct {
	Name     string
	Argv     []string
	Exit     int
	Stdout   string
	Stderr   string
	Duration time.Duration
	TimedOut bool
	// Secret marks a step that runs ctrld itself with the token: its
	// output holds the token by ctrld's design and is redacted before
	// anyone sees it.
	Secret bool
}

// Snapshot is the state of a set of paths at one point.
type Snapshot struct {
	Name  string
	Files []FileState
}

// FileState is one path: whether it exists, its mode, and for small
// regular files their content.
type FileState struct {
	Path    string
	Exists  bool
	Mode    uint32
	Link    string
	Content string
}

// Process is one process alive in the namespace.
type Process struct {
	Pid     int
	Argv    []string
	Environ []string
}

// APIRequest is one request the fake Control D API answered. It records
// whether the token matched, never the token.
type APIRequest struct {
	Kind       string // "prov_token", "uid" or "doh"
	TokenMatch bool
	Status     int
}

// StepNamed returns the first step with that name.
func (r *Report) StepNamed(name string) (Step, bool) {
	for _, s := range r.Steps {
		if s.Name == name {
			return s, true
		}
	}
	return Step{}, false
}

// SnapshotNamed returns the snapshot with that name.
func (r *Report) SnapshotNamed(name string) (Snapshot, bool) {
	for _, s := range r.Snapshots {
		if s.Name == name {
			return s, true
		}
	}
	return Snapshot{}, false
}

// Existing lists the snapshot's paths that exist.
func (s Snapshot) Existing() []string {
	var out []string
	for _, f := range s.Files {
		if f.Exists {
			out = append(out, f.Path)
		}
	}
	return out
}

// File returns one path's state.
func (s Snapshot) File(path string) FileState {
	for _, f := range s.Files {
		if f.Path == path {
			return f
		}
	}
	return FileState{Path: path}
}
