package realctrld

import "time"

// report is what a scenario saw, written inside and judged on the host.
type report struct {
	Steps []stepResult
	// Snapshots are the state of named paths at points the scenario chose.
	Snapshots []snapshot
	// Processes alive in the namespace when the scenario ended.
	Processes []process
	// ProcessSnapshots are the processes at points the scenario chose.
	ProcessSnapshots map[string][]process
	Syslog           []string
	API              []apiRequest
	// PidNamespace is the scenario's pid namespace inode, so the host can
	// check that nothing of it outlived the scenario.
	PidNamespace uint64
	Error        string
}

// stepResult is one command the scenario ran.
type stepResult struct {
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

// snapshot is the state of a set of paths at one point.
type snapshot struct {
	Name  string
	Files []pathState
}

// pathState is one path: whether it exists, its mode, and for small
// regular files their content.
type pathState struct {
	Path    string
	Exists  bool
	Mode    uint32
	Link    string
	Content string
}

// process is one process alive in the namespace.
type process struct {
	Pid     int
	Argv    []string
	Environ []string
}

// apiRequest is one request the fake Control D API answered. It records
// whether the token matched, never the token.
type apiRequest struct {
	Kind       string // "prov_token", "uid" or "doh"
	TokenMatch bool
	Status     int
}

// stepNamed returns the first step with that name.
func (r *report) stepNamed(name string) (stepResult, bool) {
	for _, s := range r.Steps {
		if s.Name == name {
			return s, true
		}
	}
	return stepResult{}, false
}

// snapshotNamed returns the snapshot with that name.
func (r *report) snapshotNamed(name string) (snapshot, bool) {
	for _, s := range r.Snapshots {
		if s.Name == name {
			return s, true
		}
	}
	return snapshot{}, false
}

// existing lists the snapshot's paths that exist.
func (s snapshot) existing() []string {
	var out []string
	for _, f := range s.Files {
		if f.Exists {
			out = append(out, f.Path)
		}
	}
	return out
}

// file returns one path's state.
func (s snapshot) file(path string) pathState {
	for _, f := range s.Files {
		if f.Path == path {
			return f
		}
	}
	return pathState{Path: path}
}
