package provision

import (
	"context"

	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/secret"
)

// What a check that must change nothing asks of start's decisions. Each
// reads what start reads, the way start reads it, and writes nothing.

// Upgrade reports whether start would take the upgrade path: ctrld's
// service is already installed. With no ctrld found there is no service
// name to look for (an empty one would match the folder of the service
// files), so there is no upgrade to predict: the fresh path's checks apply.
func (p *Provisioner) Upgrade() bool {
	return p.Config.Ctrld != "" && p.OS.Installed(p.service())
}

// Settings merges every source as start does, once, without waiting for
// a profile. The files' warnings go to the provisioner's Log. A stop
// signal ends the read at once with the context's cause.
func (p *Provisioner) Settings(ctx context.Context) (settings.Settings, error) {
	p.rememberGiven()
	return p.gather(ctx)
}

// Redact removes every token value met so far from msg.
func (p *Provisioner) Redact(msg string) string { return secret.Redact(msg, p.seen...) }

// Seen lists every token value met so far, for the input checks.
func (p *Provisioner) Seen() []string { return p.seen }
