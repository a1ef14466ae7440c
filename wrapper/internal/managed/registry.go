package managed

import (
	"strconv"

	"github.com/ctrld-install/ctrld-install/internal/settings"
)

// RegistryValues is the little of a registry key the policy source needs:
// a value as a string (REG_SZ, REG_EXPAND_SZ) or as a number (REG_DWORD,
// REG_QWORD). ok is false when the value is absent or of another type.
type RegistryValues interface {
	String(name string) (v string, ok bool)
	Integer(name string) (v uint64, ok bool)
}

// FromRegistry reads the policy values. A Bool setting may be a DWORD or
// a string; the others must be strings.
func FromRegistry(r RegistryValues) settings.Settings {
	s := settings.Settings{}
	for _, k := range settings.Keys {
		if v, ok := r.String(string(k)); ok {
			s.Put(k, v)
			continue
		}
		if n, ok := r.Integer(string(k)); ok && settings.IsBool(k) {
			s.Put(k, strconv.FormatBool(n != 0))
		}
	}
	return s
}
