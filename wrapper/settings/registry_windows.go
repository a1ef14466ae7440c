package settings

import (
	"golang.org/x/sys/windows/registry"
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
func ReadPolicy() Settings {
	k, err := registry.OpenKey(registry.LOCAL_MACHINE, PolicyKeyPath, registry.QUERY_VALUE|registry.WOW64_64KEY)
	if err != nil {
		return Settings{}
	}
	defer k.Close()
	return FromRegistry(policyKey{k})
}
