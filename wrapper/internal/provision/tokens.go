package provision

import (
	"slices"

	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/secret"
)

// remember notes the token of a source, so that messages can redact it.
func (p *Provisioner) remember(s settings.Settings) { p.know(s[settings.ProvisionToken]) }

// rememberGiven notes every token of the command line and environment.
func (p *Provisioner) rememberGiven() {
	p.remember(p.Config.Given)
	p.know(p.Config.Tokens...)
}

func (p *Provisioner) know(tokens ...string) {
	for _, tok := range tokens {
		if tok != "" && !slices.Contains(p.seen, tok) {
			p.seen = append(p.seen, tok)
		}
	}
}

func (p *Provisioner) reason(err error) string { return secret.Reason(err, p.seen...) }

// warn sends a warning to the OS log with every token value seen so far
// redacted: the last guard for messages built from settings.
func (p *Provisioner) warn(msg string) { p.Log.Warn(secret.Redact(msg, p.seen...)) }
