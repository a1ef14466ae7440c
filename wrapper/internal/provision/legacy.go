package provision

import (
	"context"
	"errors"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

// moveOffLegacyDir moves the service off the place earlier releases ran
// ctrld from, where the OS has one (macOS: /usr/local/bin), before the
// upgrade reloads it. A job that could not be moved fails the run with
// SERVICE_RELOAD_FAILED. Old copies that could not be removed, and a job
// plist that cannot be read (launchd cannot run it either), only warn:
// no binary was removed from under a job.
func (p *Provisioner) moveOffLegacyDir(ctx context.Context, svc platform.Service) (codes.Outcome, bool) {
	mctx, cancel := context.WithTimeoutCause(ctx, p.Config.Timeout, errTimeout)
	defer cancel()
	err := p.OS.MoveOffLegacyDir(mctx, svc)
	switch {
	case interrupted(ctx):
		return codes.Failure(codes.WrapperInterrupted), true
	case errors.Is(err, platform.ErrLegacyCopiesLeft), errors.Is(err, platform.ErrJobUnreadable):
		p.warn("the service was not fully moved off the old location: " + p.reason(err))
	case err != nil:
		p.warn("the service could not be moved off the old location: " + p.reason(err))
		return codes.Failure(codes.ServiceReloadFailed), true
	}
	return codes.Outcome{}, false
}
