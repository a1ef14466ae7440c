package testenv

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// CodeCanary is a second canary token, made of the characters of a code
// name (in lower case) with two digits: a part of it, upper-cased, could
// pass for a code that ctrld printed.
const CodeCanary = "qzx_canary_code_shaped_tok42"

// runLen is the shortest run of a token's characters that no output may
// hold, ignoring case.
const runLen = 12

// HoldsPartOf reports whether text holds token, or a run of runLen of its
// characters, ignoring ASCII case. It checks every run the slow way, so a
// test does not rely on the code it tests.
func HoldsPartOf(text []byte, token string) bool {
	lower := bytes.ToLower(text)
	tok := strings.ToLower(token)
	w := min(runLen, len(tok))
	for i := 0; i+w <= len(tok); i++ {
		if bytes.Contains(lower, []byte(tok[i:i+w])) {
			return true
		}
	}
	return false
}

// FilesWithCanary lists the regular files under root that hold the canary
// token, leaving out the inputs that hold it on purpose (absolute paths).
func FilesWithCanary(root string, except ...string) []string {
	return filesWith(root, func(data []byte) bool { return bytes.Contains(data, []byte(Canary)) }, except)
}

// FilesWithPartOf lists the regular files under root that hold any part
// of token that HoldsPartOf finds, leaving out the given inputs.
func FilesWithPartOf(root, token string, except ...string) []string {
	return filesWith(root, func(data []byte) bool { return HoldsPartOf(data, token) }, except)
}

func filesWith(root string, holds func([]byte) bool, except []string) []string {
	skip := map[string]bool{}
	for _, e := range except {
		skip[e] = true
	}
	var found []string
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || skip[path] {
			return nil
		}
		if data, err := os.ReadFile(path); err == nil && holds(data) {
			found = append(found, path)
		}
		return nil
	})
	return found
}

// ExitCode reads a finished command's error: its exit code, or the error
// when the command could not run at all.
func ExitCode(err error) (int, error) {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), nil
	}
	return 0, err
}
