package provision

import (
	"context"
	"os"
	"path/filepath"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

// removeEveryLine finishes a removal for both ctrld lines, so that
// nothing of either is left: the other line's service (ctrld-client
// beside ctrld, or the reverse) is taken down as ours was, in any state;
// nothing is done for a line with neither a service nor a binary; its
// binary beside ours is deleted once no service of it is known to
// the OS (where the OS's clean-up cannot remove the service, the binary
// stays with it); and every file either line writes in the home dir goes.
func removeEveryLine(ctx context.Context, cfg Config, osys platform.OS) {
	if cfg.Ctrld != "" {
		for _, other := range names.OtherLines(ServiceName(cfg.Ctrld)) {
			bin := filepath.Join(filepath.Dir(cfg.Ctrld), osys.ProgramFile(other.Binary))
			if !platform.ServiceKnown(osys, other.Binary) && !exists(bin) {
				continue
			}
			osys.RemoveLeftovers(ctx, platform.Service{Name: other.Binary, Ctrld: bin}, cfg.Grace)
			if !platform.ServiceKnown(osys, other.Binary) {
				removeRegular(bin)
			}
		}
	}
	for _, name := range names.CtrldLineHomeFiles() {
		removeRegular(filepath.Join(cfg.Home, name))
	}
}

// removeRegular deletes path when it is a regular file, never a folder
// or a link another user may have planted.
func removeRegular(path string) {
	if st, err := os.Lstat(path); err == nil && st.Mode().IsRegular() {
		os.Remove(path)
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
