package provision

import (
	"github.com/ctrld-install/ctrld-install/wrapper/internal/secret"
	"github.com/ctrld-install/ctrld-install/wrapper/settings"
)

// What a check that must change nothing asks of start's decisions. Each
// reads what start reads, the way start reads it, and writes nothing.

// Upgrade reports whether start would take the upgrade path: ctrld's
// service is already installed.
func (p *Provisioner) Upgrade() bool { return p.OS.Installed(p.service()) }

// Settings merges every source as start does, once, without waiting for
// a profile. The files' warnings go to the provisioner's Log.
func (p *Provisioner) Settings() settings.Settings {
	p.remember(p.Config.Given)
	return p.gather()
}

// Redact removes every token value met so far from msg.
func (p *Provisioner) Redact(msg string) string { return secret.Redact(msg, p.seen...) }

// Seen lists every token value met so far, for the input checks.
func (p *Provisioner) Seen() []string { return p.seen }
