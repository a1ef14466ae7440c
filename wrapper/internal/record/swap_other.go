//go:build !linux && !darwin

package record

import "os"

// replace moves the flushed pending file over the record.
func replace(pending, record string) error { return os.Rename(pending, record) }
