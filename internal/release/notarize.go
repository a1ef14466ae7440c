package release

import (
	"context"
	"io"
	"path/filepath"

	"github.com/ctrld-install/ctrld-install/installers/macos/notary"
)

// Notarize submits the signed pkg in out to Apple's notary service and
// waits for the verdict (the notary package's inputs and bounds).
func Notarize(ctx context.Context, out string, getenv func(string) string, progress io.Writer) error {
	cfg, err := notary.FromEnv(getenv)
	if err != nil {
		return err
	}
	pkg, err := notary.FindPkg(out)
	if err != nil {
		return err
	}
	return notary.Notarize(ctx, cfg, pkg, progress)
}

// Staple appends the notarized pkg's ticket to it and records its new
// bytes in SHA256SUMS and manifest.json.
func Staple(ctx context.Context, out string, getenv func(string) string, progress io.Writer) error {
	cfg, err := notary.FromEnv(getenv)
	if err != nil {
		return err
	}
	pkg, err := notary.FindPkg(out)
	if err != nil {
		return err
	}
	if err := notary.Staple(ctx, cfg, pkg, progress); err != nil {
		return err
	}
	return Restamp(out, filepath.Base(pkg))
}
