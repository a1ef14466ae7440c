package provision

import (
	"context"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

func (p *Provisioner) fresh(ctx context.Context, svc platform.Service) codes.Outcome {
	s, err := p.waitForToken(ctx)
	if err != nil {
		return codes.Failure(codes.WrapperInterrupted)
	}
	if _, ok := s.Get(settings.ProvisionToken); !ok {
		return codes.Failure(codes.ProfilePrefsMissing)
	}
	if bad, failed := p.checkInputs(s); failed {
		return bad
	}
	o := p.start(ctx, svc, freshArgs(s))
	if !o.OK {
		p.undo()
	}
	return o
}

// undo runs the clean-up after a failed fresh install, even when the run
// was interrupted: a failure must never leave the machine without DNS
// (a ctrld unit active, enabled or failed, or resolv.conf pointing at a
// listener that is not there).
func (p *Provisioner) undo() {
	ctx, cancel := context.WithTimeout(context.Background(), p.OS.Bounds().Cleanup)
	defer cancel()
	cleanUp(ctx, p.Config, p.OS)
}

// freshArgs are ctrld start's arguments: each set setting's, in the
// table's order.
func freshArgs(s settings.Settings) []string {
	args := []string{"start"}
	for _, st := range settings.Table {
		if v, ok := s.Get(st.Key); ok {
			args = append(args, st.Ctrld(v)...)
		}
	}
	return args
}
