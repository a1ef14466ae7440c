// Package realctrld runs the real ctrld, our wrapper and our packages in
// throwaway Linux namespaces: a mount namespace with overlays over the
// writable system folders and fresh tmpfs on /run, /tmp, /dev and
// /dev/shm, a network namespace holding only lo, and new pid, uts and ipc
// namespaces. Nothing it runs can reach the machine's files, network or
// processes; a scenario ends when its namespace is killed.
//
// The test binary plays three parts: on the host it starts a scenario
// under unshare(1) and judges the report; inside, as PID 1, it builds the
// namespace's file system and reaps orphans; its child runs the scenario
// and writes the report.
//
// The systemd tier boots a real systemd instead: the test binary, started
// in new pid, mount, net, uts and ipc namespaces inside a cgroup of its
// own, enters a cgroup namespace, lays an overlay over a cached Debian root
// file system (built once with debootstrap), pivots into it and execs
// systemd. The host runs each phase of a scenario inside through nsenter,
// as the same test binary, and reboots the container between phases when
// the scenario needs a machine that comes back offline.
package realctrld
