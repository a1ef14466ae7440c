package main

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
)

// Placeholders in a start.result-file template.
const (
	nowPlaceholder   = "@NOW@"   // the current time, RFC 3339 UTC, as ctrld stamps the file
	tokenPlaceholder = "@TOKEN@" // the --cd-org value, for a message that echoes the token
)

// copyResult writes the template at src as the result file in home, so a
// scenario can give the file any message and detail.attempts a real ctrld
// may write.
func copyResult(home, src, token string) {
	data, err := os.ReadFile(src)
	if err != nil {
		return
	}
	body := strings.NewReplacer(
		nowPlaceholder, time.Now().UTC().Format(time.RFC3339),
		tokenPlaceholder, token,
	).Replace(string(data))
	saveResult(home, body)
}

// saveResult writes body as the result file in home, atomically and mode
// 0600, as ctrld does.
func saveResult(home, body string) {
	os.MkdirAll(home, 0o755)
	tmp := filepath.Join(home, "."+names.ResultFile+".tmp")
	if os.WriteFile(tmp, []byte(body), 0o600) == nil {
		os.Rename(tmp, filepath.Join(home, names.ResultFile))
	}
}
