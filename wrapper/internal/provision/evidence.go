package provision

import (
	"context"
	"fmt"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/evidence"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

// keepEvidence runs right after the outcome is recorded, still under the
// lock: it replaces the copy of ctrld's result-file evidence kept beside
// the record with the one for this outcome, or removes it when there is
// none (success, or no result file the wrapper trusts for this attempt).
// The copy only ever sits beside a record holding the same line.
func (p *Provisioner) keepEvidence(began time.Time, o codes.Outcome) {
	// The outcome is decided: nothing here may change it.
	defer p.survive("keeping the evidence copy")
	dir := p.Config.RecordDir
	if o.OK {
		evidence.Remove(dir)
		return
	}
	r, ok := evidence.FromResultFile(p.Config.Home, began, o, p.seen)
	if !ok {
		evidence.Remove(dir)
		return
	}
	if err := evidence.Save(dir, r); err != nil {
		p.warn("the evidence copy could not be saved: " + p.reason(err))
		evidence.Remove(dir)
	}
}

// survive, deferred, stops a panic and says why in the OS log, with every
// token value seen redacted: for steps that must not change a decided
// outcome.
func (p *Provisioner) survive(what string) {
	if r := recover(); r != nil {
		p.warn(what + " failed: internal error: " + p.reason(fmt.Errorf("%v", r)))
	}
}

// KnownTokens lists every provisioning token value the sources hold now
// (command line, token file, environment, managed preferences, settings
// file, OS policy), so that what explain prints can be redacted. It fails
// only when interrupted.
func KnownTokens(ctx context.Context, cfg Config, osys platform.OS) ([]string, error) {
	p := &Provisioner{Config: cfg, OS: osys, Log: silent{}}
	p.rememberGiven()
	if _, err := p.gather(ctx); err != nil {
		return nil, err
	}
	return p.seen, nil
}

// silent drops warnings and outcomes: gathering tokens for redaction must
// not repeat start's warnings in the OS log.
type silent struct{}

func (silent) Warn(string)          {}
func (silent) Result(codes.Outcome) {}
