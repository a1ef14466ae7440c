package release

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Restamp records an artifact's new bytes after a step that changes it
// once dist is done (stapling the notarization ticket to the pkg): its
// size and sha256 in manifest.json, and SHA256SUMS rewritten from the
// manifest. Every other entry is kept as it is.
func Restamp(out, name string) error {
	manifestPath := filepath.Join(out, "manifest.json")
	data, err := os.ReadFile(manifestPath)
	if err != nil {
		return fmt.Errorf("%w (run dist first)", err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("%s: %w", manifestPath, err)
	}
	found := false
	for i := range m.Artifacts {
		if m.Artifacts[i].Name != name {
			continue
		}
		sum, size, err := hashFile(filepath.Join(out, name))
		if err != nil {
			return err
		}
		m.Artifacts[i].SHA256, m.Artifacts[i].Size, found = sum, size, true
	}
	if !found {
		return fmt.Errorf("%s is not in %s", name, manifestPath)
	}
	if err := writeSums(out, m.Artifacts); err != nil {
		return err
	}
	updated, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(manifestPath, append(updated, '\n'), 0o644)
}
