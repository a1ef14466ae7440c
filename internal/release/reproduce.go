package release

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// CheckReproducible builds the release twice from the same inputs into
// two fresh folders and fails unless the trees are byte-identical.
func CheckReproducible(cfg Config) error {
	base, err := os.MkdirTemp("", "ctrld-repro")
	if err != nil {
		return err
	}
	defer os.RemoveAll(base)
	var trees [2]map[string][]byte
	for i := range trees {
		run := cfg
		run.Out = filepath.Join(base, fmt.Sprintf("dist%d", i))
		run.Work = filepath.Join(base, fmt.Sprintf("work%d", i))
		if _, err := Dist(run); err != nil {
			return err
		}
		if trees[i], err = readTree(run.Out); err != nil {
			return err
		}
	}
	return compareTrees(trees[0], trees[1])
}

func readTree(root string) (map[string][]byte, error) {
	tree := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		tree[rel], err = os.ReadFile(path)
		return err
	})
	return tree, err
}

func compareTrees(a, b map[string][]byte) error {
	var names []string
	for n := range a {
		names = append(names, n)
	}
	for n := range b {
		if _, ok := a[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var differ []string
	for _, n := range names {
		if !bytes.Equal(a[n], b[n]) || (a[n] == nil) != (b[n] == nil) {
			differ = append(differ, n)
		}
	}
	if len(differ) > 0 {
		return fmt.Errorf("not reproducible: %v differ between two builds", differ)
	}
	return nil
}
