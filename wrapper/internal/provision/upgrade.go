package provision

import (
	"context"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

// upgrade never needs the token. With an InterceptMode it restarts ctrld
// in that mode; without one it reloads the existing service.
func (p *Provisioner) upgrade(ctx context.Context, svc platform.Service) codes.Outcome {
	s, err := p.gather(ctx)
	if err != nil {
		return codes.Failure(codes.WrapperInterrupted)
	}
	if m, set := s.Get(settings.InterceptMode); set {
		if arg, ok := settings.InterceptArg(m); ok {
			return p.start(ctx, svc, []string{"start", settings.CtrldInterceptFlag, arg})
		}
		intercept, _ := settings.Lookup(settings.InterceptMode)
		p.warn(refusal(intercept, m) + "; ignored on upgrade, service reloaded as it is")
	}
	return p.reload(ctx, svc)
}

// reloadBounds are the OS's bounds on an upgrade's reload and on its
// restart; where the OS sets none, the run's default timeouts.
func (p *Provisioner) reloadBounds() (budget, restart time.Duration) {
	b := p.OS.Bounds()
	if b.Reload == 0 {
		return DefaultTimeout + DefaultGateTimeout, DefaultTimeout
	}
	return b.Reload, b.Restart
}

// reload restarts the existing service within the reload budget, its success
// gate included: an offline upgrade must not hold the package manager for
// minutes. A reload that fails, is cut short or finds the daemon not
// ready is SERVICE_RELOAD_FAILED, and the service still runs.
func (p *Provisioner) reload(ctx context.Context, svc platform.Service) codes.Outcome {
	budget, restart := p.reloadBounds()
	bctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	rctx, cancelRun := context.WithTimeoutCause(bctx, min(p.Config.Timeout, restart), errTimeout)
	defer cancelRun()
	err := p.OS.Reload(rctx, svc)
	if interrupted(ctx) {
		return codes.Failure(codes.WrapperInterrupted)
	}
	if err != nil {
		return codes.Failure(codes.ServiceReloadFailed)
	}
	return p.gate(bctx, svc)
}
