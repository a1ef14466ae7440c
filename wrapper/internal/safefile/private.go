package safefile

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
)

// CreatePrivateTemp creates a new private file (see CreatePrivate) under
// a fresh random name in dir that starts with prefix.
func CreatePrivateTemp(dir, prefix string) (*os.File, error) {
	var suffix [8]byte
	if _, err := rand.Read(suffix[:]); err != nil {
		return nil, err
	}
	return CreatePrivate(filepath.Join(dir, prefix+hex.EncodeToString(suffix[:])))
}
