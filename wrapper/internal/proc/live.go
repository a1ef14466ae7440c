package proc

import "sync"

// live holds the groups of every run still in progress, for KillAll.
var live = struct {
	sync.Mutex
	groups map[group]bool
}{groups: map[group]bool{}}

func track(g group) (untrack func()) {
	live.Lock()
	defer live.Unlock()
	live.groups[g] = true
	return func() {
		live.Lock()
		defer live.Unlock()
		delete(live.groups, g)
	}
}

// KillAll hard-kills the tree of every run in progress, for a wrapper
// that must exit at once.
func KillAll() {
	live.Lock()
	defer live.Unlock()
	for g := range live.groups {
		g.kill()
	}
}
