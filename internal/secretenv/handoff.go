package secretenv

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// HandOff moves every secret variable out of this process's environment
// into a file only this user can read, in a new folder of its own, and
// names that file in the environment for Take. mage.go calls it before
// mage.Main, so the go commands mage runs see no secret. The returned
// cleanup removes the folder, whether or not the magefile took it.
func HandOff() (cleanup func(), err error) {
	secrets := fromEnvironment()
	forget()
	if len(secrets) == 0 {
		return func() {}, nil
	}
	data, err := json.Marshal(secrets)
	if err != nil {
		return nil, err
	}
	defer clear(data)
	dir, err := os.MkdirTemp("", handOffDirPattern)
	if err != nil {
		return nil, fmt.Errorf("hand the signing secrets to the magefile: %w", err)
	}
	cleanup = func() { os.RemoveAll(dir) }
	path := filepath.Join(dir, handOffFile)
	if err := writePrivate(path, data); err != nil {
		cleanup()
		return nil, fmt.Errorf("hand the signing secrets to the magefile: %w", err)
	}
	os.Setenv(handOffVar, path)
	return cleanup, nil
}

func writePrivate(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, privateFile)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Take returns the secrets of this run: those mage.go handed off, and
// any still in the environment (mage run without mage.go). It deletes
// the hand-off and removes every secret from the environment, so no
// process started after it inherits one. The magefile calls it once,
// before any target runs, and every target signs with what it returns.
func Take() (Secrets, error) {
	defer forget()
	secrets := fromEnvironment()
	path := os.Getenv(handOffVar)
	if path == "" {
		return secrets, nil
	}
	handed, err := readHandOff(path)
	if err != nil {
		return nil, err
	}
	for name, value := range handed {
		secrets[strings.ToUpper(name)] = value
	}
	return secrets, nil
}

// readHandOff reads and deletes a file HandOff wrote; it touches no
// other file, whatever the variable names.
func readHandOff(path string) (Secrets, error) {
	dir := filepath.Dir(path)
	if filepath.Base(path) != handOffFile || !strings.HasPrefix(filepath.Base(dir), handOffDirPrefix) {
		return nil, fmt.Errorf("%s does not name a hand-off of mage.go's: run `go run mage.go`, or unset it", handOffVar)
	}
	info, err := os.Lstat(path)
	if err != nil {
		return nil, fmt.Errorf("the signing secrets mage.go handed over: %w", err)
	}
	if !info.Mode().IsRegular() || (runtime.GOOS != "windows" && info.Mode().Perm()&^privateFile != 0) {
		return nil, fmt.Errorf("the signing secrets' hand-off %s is not a private regular file", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("the signing secrets mage.go handed over: %w", err)
	}
	defer clear(data)
	os.Remove(path)
	os.Remove(dir)
	var handed Secrets
	if err := json.Unmarshal(data, &handed); err != nil {
		return nil, fmt.Errorf("the signing secrets' hand-off %s is not one mage.go wrote", path)
	}
	return handed, nil
}
