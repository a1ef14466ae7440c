package managed

import (
	"golang.org/x/sys/windows/registry"

	"github.com/ctrld-install/ctrld-install/internal/settings"
)

type policyKey struct{ k registry.Key }

func (p policyKey) String(name string) (string, bool) {
	v, _, err := p.k.GetStringValue(name)
	return v, err == nil
}

func (p policyKey) Integer(name string) (uint64, bool) {
	v, _, err := p.k.GetIntegerValue(name)
	return v, err == nil
}

// ReadPolicy reads HKLM\SOFTWARE\Policies\ControlD\ctrld. A missing key
// gives no settings.
func ReadPolicy() settings.Settings {
	k, err := registry.OpenKey(registry.LOCAL_MACHINE, settings.PolicyKeyPath, registry.QUERY_VALUE|registry.WOW64_64KEY)
	if err != nil {
		return settings.Settings{}
	}
	defer k.Close()
	return FromRegistry(policyKey{k})
}
