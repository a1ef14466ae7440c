package repocheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// shellcheck, which both tests run, is on the Linux images only.

func TestWorkflowPassesActionlint(t *testing.T) {
	shellcheck := testenv.RequireTool(t, "shellcheck")
	var log strings.Builder
	linter, err := actionlint.NewLinter(&log, &actionlint.LinterOptions{Shellcheck: shellcheck})
	if err != nil {
		t.Fatal(err)
	}
	workflow := filepath.Join(testenv.RepoRoot(), ".github", "workflows", "ci.yml")
	errs, err := linter.LintFile(workflow, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Errorf("%s:%d:%d: %s [%s]", filepath.Base(workflow), e.Line, e.Column, e.Message, e.Kind)
	}
}

func TestCIScriptsPassShellcheck(t *testing.T) {
	for _, name := range []string{"macos-e2e.sh", "run"} {
		body, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), ".ci", name))
		if err != nil {
			t.Fatal(err)
		}
		shell := "sh"
		if strings.HasPrefix(string(body), "#!/usr/bin/env bash") {
			shell = "bash"
		}
		testenv.ShellCheckAs(t, name, shell, body)
	}
}
