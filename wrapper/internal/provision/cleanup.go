package provision

import (
	"context"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

// ctrldAnswers reports whether ctrld's own commands can reach its daemon:
// when they cannot, ctrld uninstall would only wait, and cleanUp does its
// work instead.
func ctrldAnswers(cfg Config, osys platform.OS) bool {
	return osys.Ready(ctrldService(cfg))
}

// cleanUp has the OS remove what is left of ctrld's service, after an
// uninstall and after a failed fresh install: a failure must never leave
// the machine without DNS.
func cleanUp(ctx context.Context, cfg Config, osys platform.OS) {
	osys.RemoveLeftovers(ctx, ctrldService(cfg), cfg.Grace)
}

// ctrldService is ctrld's service as the clean-up knows it: its name and
// binary.
func ctrldService(cfg Config) platform.Service {
	return platform.Service{Name: ServiceName(cfg.Ctrld), Ctrld: cfg.Ctrld}
}
