package testenv

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Shared is a folder for what a package's tests build once per run and
// share. TestMain makes it with RunSharing.
type Shared struct {
	Dir    string
	builds sync.Map // of *sharedBuild, by package and environment
}

type sharedBuild struct {
	once sync.Once
	path string
	err  error
}

// RunSharing runs the package's tests with s's folder made, and removes
// it afterwards. TestMain gives the exit code to os.Exit.
func RunSharing(m *testing.M, s *Shared) int {
	dir, err := os.MkdirTemp("", "shared-fixtures")
	if err != nil {
		panic(err)
	}
	s.Dir = dir
	defer os.RemoveAll(dir)
	return m.Run()
}

// GoBuild is testenv.GoBuild with the binary built once per package and
// environment, and copied into dir/name for the test to run or change.
func (s *Shared) GoBuild(t testing.TB, dir, name, pkg string, env ...string) string {
	t.Helper()
	key := pkg + "\x00" + strings.Join(env, "\x00")
	entry, _ := s.builds.LoadOrStore(key, &sharedBuild{})
	b := entry.(*sharedBuild)
	b.once.Do(func() { b.path, b.err = s.build(name, pkg, env) })
	if b.err != nil {
		t.Fatal(b.err)
	}
	data, err := os.ReadFile(b.path)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, name)
	if err := os.WriteFile(out, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return out
}

func (s *Shared) build(name, pkg string, env []string) (string, error) {
	dir, err := os.MkdirTemp(s.Dir, "build")
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, name)
	return out, Build(out, pkg, nil, env...)
}
