package realctrld

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// sysctlDirs are where the root file system's systemd-sysctl reads the
// values it would write into the (shared) kernel.
var sysctlDirs = []string{"usr/lib/sysctl.d", "lib/sysctl.d", "etc/sysctl.d", "run/sysctl.d"}

// pid1Sysctls are what systemd as PID 1 raises or sets itself, without
// sysctl.d.
var pid1Sysctls = []string{"fs.nr_open", "fs.file-max", "kernel.core_pattern", "kernel.pid_max"}

// hostSysctls reads the host's value of every sysctl the container's
// systemd would set: none of them may change.
func hostSysctls(rootfs string) map[string]string {
	values := map[string]string{}
	for _, key := range sysctlKeys(rootfs) {
		data, err := os.ReadFile("/proc/sys/" + strings.ReplaceAll(key, ".", "/"))
		if err != nil {
			values[key] = "unreadable"
			continue
		}
		values[key] = strings.TrimSpace(string(data))
	}
	return values
}

func sysctlKeys(rootfs string) []string {
	seen := map[string]bool{}
	for _, key := range pid1Sysctls {
		seen[key] = true
	}
	for _, dir := range sysctlDirs {
		files, _ := filepath.Glob(filepath.Join(rootfs, dir, "*.conf"))
		for _, f := range files {
			for _, key := range keysIn(f) {
				seen[key] = true
			}
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// keysIn lists the plain keys of a sysctl.d file; globbed keys are left
// out.
func keysIn(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var keys []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		key, _, ok := strings.Cut(line, "=")
		key = strings.TrimPrefix(strings.TrimSpace(key), "-")
		if !ok || key == "" || strings.HasPrefix(key, "#") || strings.HasPrefix(key, ";") || strings.ContainsAny(key, "*?[/") {
			continue
		}
		keys = append(keys, key)
	}
	return keys
}

func compareSysctls(before, after map[string]string) []string {
	var diffs []string
	for k, v := range before {
		if after[k] != v {
			diffs = append(diffs, fmt.Sprintf("sysctl %s: %q -> %q", k, v, after[k]))
		}
	}
	sort.Strings(diffs)
	return diffs
}
