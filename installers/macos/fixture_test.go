package macos

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/ctrld-install/ctrld-install/installers/signing/signingtest"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// shared holds what the tests build once per run and share.
var shared testenv.Shared

func TestMain(m *testing.M) { os.Exit(testenv.RunSharing(m, &shared)) }

// sharedPackage is a package built once, by the first test that asks,
// for every test that only reads it; a failed build is retried by the
// next test.
type sharedPackage struct {
	mu   sync.Mutex
	path string
	leaf *signingtest.Leaf // the signer's; nil when unsigned
}

var unsignedShared, signedShared sharedPackage

// sharedUnsignedPkg is testPackage, built once.
func sharedUnsignedPkg(t *testing.T) string {
	t.Helper()
	path, _ := unsignedShared.get(t, "unsigned", func() (Package, *signingtest.Leaf) { return testPackage(t), nil })
	return path
}

// sharedSignedPkg is signedPackage, built once, and its signer's leaf.
func sharedSignedPkg(t *testing.T) (string, *signingtest.Leaf) {
	t.Helper()
	return signedShared.get(t, "signed", func() (Package, *signingtest.Leaf) { return signedPackage(t) })
}

func (s *sharedPackage) get(t *testing.T, name string, pkg func() (Package, *signingtest.Leaf)) (string, *signingtest.Leaf) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.path == "" {
		p, leaf := pkg()
		dir := filepath.Join(shared.Dir, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		s.path, s.leaf = writePkg(t, dir, p), leaf
	}
	return s.path, s.leaf
}
