package tiers

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// FuzzTarget is one Fuzz function of the module's tests.
type FuzzTarget struct {
	Pkg  string // ./path
	Name string
}

func (f FuzzTarget) String() string { return f.Pkg + " " + f.Name }

// Every fuzz target runs on every test run for a number of executions,
// a few seconds' worth on an idle machine here; longer runs are for `go
// test -fuzz` by hand. The budgets are counts, not durations: in Go 1.26
// a duration races the fuzz coordinator's shutdown on a busy machine and
// fails a clean run with "context deadline exceeded".
const defaultFuzzExecs = 2000

// fuzzExecs are the budgets of the targets far faster or slower than
// most. A target not named here gets defaultFuzzExecs; a name here that
// no target has fails the run, so the table cannot outlive a rename.
var fuzzExecs = map[FuzzTarget]int{
	{"./wrapper/internal/scan", "FuzzScanner"}:            60000,
	{"./wrapper/internal/scan", "FuzzScannerUpperCanary"}: 20000,
	{"./installers/macos/xar", "FuzzReader"}:              60,
	{"./installers/macos/cpio", "FuzzReader"}:             150000,
	{"./installers/macos/bom", "FuzzRead"}:                100000,
	{"./installers/windows/cab", "FuzzReader"}:            10000,
	{"./installers/windows/cab", "FuzzDecodesStrictly"}:   20000,
	{"./installers/windows/cfb", "FuzzReader"}:            20000,
	{"./installers/windows/msidb", "FuzzReader"}:          8000,
	{"./installers/windows/msidb", "FuzzMSI"}:             8000,
}

// fuzzTimeEnv, a duration or a count such as 1000x, overrides every
// budget.
const fuzzTimeEnv = "FUZZTIME"

// Fuzz runs every fuzz target of the module for its budget.
func Fuzz() error {
	mod, err := listModule()
	if err != nil {
		return err
	}
	cmds, err := mod.fuzzCommands()
	if err != nil {
		return err
	}
	return runAll(cmds)
}

func (m module) fuzzCommands() ([]Command, error) {
	targets, err := m.fuzzTargets()
	if err != nil {
		return nil, err
	}
	if err := checkBudgets(targets); err != nil {
		return nil, err
	}
	var cmds []Command
	for _, t := range targets {
		cmds = append(cmds, goCommand("test", "-run", "^$", "-fuzz", "^"+t.Name+"$", "-fuzztime", fuzzBudget(t), t.Pkg))
	}
	return cmds, nil
}

func fuzzBudget(t FuzzTarget) string {
	if v := os.Getenv(fuzzTimeEnv); v != "" {
		return v
	}
	execs, ok := fuzzExecs[t]
	if !ok {
		execs = defaultFuzzExecs
	}
	return strconv.Itoa(execs) + "x"
}

func checkBudgets(targets []FuzzTarget) error {
	have := map[FuzzTarget]bool{}
	for _, t := range targets {
		have[t] = true
	}
	for t := range fuzzExecs {
		if !have[t] {
			return fmt.Errorf("fuzz budget for %s, which is no fuzz target of the module", t)
		}
	}
	return nil
}

// fuzzTargets are the Fuzz functions of every package's test files, in
// package and file order.
func (m module) fuzzTargets() ([]FuzzTarget, error) {
	var targets []FuzzTarget
	for _, p := range m.Packages {
		for _, file := range p.TestFiles {
			names, err := testFuncs(file, "Fuzz", "F")
			if err != nil {
				return nil, err
			}
			for _, n := range names {
				targets = append(targets, FuzzTarget{p.Rel, n})
			}
		}
	}
	return targets, nil
}

// testFuncs are the functions of a test file that go test runs as
// prefix+Xxx(*testing.param), Xxx not starting with a lower-case letter.
func testFuncs(file, prefix, param string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	testing := importName(f, "testing")
	var names []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if ok && fn.Recv == nil && hasTestName(fn.Name.Name, prefix) && takesTesting(fn, testing, param) {
			names = append(names, fn.Name.Name)
		}
	}
	return names, nil
}

func hasTestName(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	rest, _ := utf8.DecodeRuneInString(name[len(prefix):])
	return len(name) == len(prefix) || !unicode.IsLower(rest)
}

func takesTesting(fn *ast.FuncDecl, testing, param string) bool {
	params := fn.Type.Params.List
	if len(params) != 1 || len(params[0].Names) > 1 || fn.Type.Results != nil {
		return false
	}
	star, ok := params[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == testing && sel.Sel.Name == param
}

// importName is the name a file gives an imported package ("" if not
// imported).
func importName(f *ast.File, path string) string {
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p != path {
			continue
		}
		if imp.Name != nil {
			return imp.Name.Name
		}
		return path
	}
	return ""
}
