//go:build unix && !linux

package lock

func groupAlive(id int) bool { return signalReaches(id) }
