package tiers

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/magefile/mage/mg"
)

// pkg is one package of the module, as go list sees it.
type pkg struct {
	ImportPath string
	Rel        string // ./ and the path from the module's root
	Dir        string
	TestFiles  []string // _test.go files, both packages
	Imports    []string
}

// module is every package of the module in the current folder.
type module struct {
	Path     string
	Packages []pkg
}

const listFormat = "{{.ImportPath}}\t{{.Dir}}\t{{.Module.Path}}\t{{join .TestGoFiles \" \"}} {{join .XTestGoFiles \" \"}}\t{{join .Imports \" \"}}"

func listModule() (module, error) {
	out, err := exec.Command(mg.GoCmd(), "list", "-f", listFormat, "./...").Output()
	if err != nil {
		return module{}, fmt.Errorf("go list ./...: %w", err)
	}
	return parseList(out)
}

func parseList(out []byte) (module, error) {
	var m module
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) != 5 {
			return module{}, fmt.Errorf("go list: unexpected line %q", sc.Text())
		}
		m.Path = cols[2]
		p := pkg{ImportPath: cols[0], Dir: cols[1], Imports: strings.Fields(cols[4])}
		p.Rel = "./" + strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, m.Path), "/")
		if p.Rel == "./" {
			p.Rel = "."
		}
		for _, f := range strings.Fields(cols[3]) {
			p.TestFiles = append(p.TestFiles, filepath.Join(p.Dir, f))
		}
		m.Packages = append(m.Packages, p)
	}
	return m, sc.Err()
}

// find is the package at rel (./path), if the module has it.
func (m module) find(rel string) (pkg, bool) {
	for _, p := range m.Packages {
		if p.Rel == rel {
			return p, true
		}
	}
	return pkg{}, false
}
