//go:build unix

package preflight

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/provision"
)

// lsof gets lsofEnv and nothing of the wrapper's environment: a fake
// lsof records what it was given.
func TestLsofRunsWithMinimalEnv(t *testing.T) {
	dir := t.TempDir()
	fake, record := filepath.Join(dir, "lsof"), filepath.Join(dir, "env")
	script := "#!/bin/sh\nenv > '" + record + "'\necho p42\necho cfake-holder\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(provision.TokenEnv, testenv.Canary)
	t.Setenv("HOME", "/home/"+testenv.Canary)
	found, err := LsofHolders{Path: fake}.Find(context.Background(), UDP, 53)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Holder{{42, "fake-holder"}}; !reflect.DeepEqual(found, want) {
		t.Errorf("holders %v, want %v", found, want)
	}
	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	if testenv.HoldsPartOf(data, testenv.Canary) {
		t.Fatalf("lsof got the token in its environment:\n%s", data)
	}
	// The shell adds PWD (and may add SHLVL, _) of its own.
	var got []string
	for _, kv := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if name, _, _ := strings.Cut(kv, "="); name != "PWD" && name != "SHLVL" && name != "_" {
			got = append(got, kv)
		}
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(lsofEnv))
	if !reflect.DeepEqual(got, want) {
		t.Errorf("lsof's environment %q, want %q", got, want)
	}
}
