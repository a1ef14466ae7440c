package linux

import (
	"bytes"
	"embed"
	"text/template"
)

//go:embed scripts/*.sh
var scriptFiles embed.FS

// scriptVars fill the shims' placeholders.
type scriptVars struct {
	Bin          string // where the binaries go
	Ctrld        string // the ctrld binary's name
	Wrapper      string // the wrapper's name
	Home         string
	SettingsFile string
	TokenEnv     string // the environment variable that may carry the token
	// HomeFiles are the files in Home that purge removes by name.
	HomeFiles []string
	// RunFiles are ctrld's sockets and pid file, removed with the package.
	RunFiles []string
	// Logs are every line's logs (the sysv service's in /var/log, v2's
	// in Home), removed on purge.
	Logs []string
}

// renderScript returns one shim with its placeholders filled.
func renderScript(name string, v scriptVars) ([]byte, error) {
	t, err := template.ParseFS(scriptFiles, "scripts/"+name)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
