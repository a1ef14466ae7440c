package provision

import (
	"path/filepath"
	"strings"

	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

func (p *Provisioner) service() platform.Service {
	svc := ctrldService(p.Config)
	svc.Files, svc.Env = p.Config.ServiceFiles, p.Config.Env
	return svc
}

// ServiceName follows the binary's name, since releases differ (ctrld,
// ctrld-client).
func ServiceName(ctrld string) string {
	base := filepath.Base(ctrld)
	if strings.EqualFold(filepath.Ext(base), ".exe") {
		base = base[:len(base)-len(".exe")]
	}
	return base
}
