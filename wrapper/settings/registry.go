package settings

import "strconv"

// PolicyKeyPath is the Windows policy key Intune and group policy write,
// under HKEY_LOCAL_MACHINE.
const PolicyKeyPath = `SOFTWARE\Policies\ControlD\ctrld`

// RegistryValues is the little of a registry key the policy source needs:
// a value as a string (REG_SZ, REG_EXPAND_SZ) or as a number (REG_DWORD,
// REG_QWORD). ok is false when the value is absent or of another type.
type RegistryValues interface {
	String(name string) (v string, ok bool)
	Integer(name string) (v uint64, ok bool)
}

// FromRegistry reads the policy values. A Bool setting may be a DWORD or
// a string; the others must be strings.
func FromRegistry(r RegistryValues) Settings {
	s := Settings{}
	for _, k := range Keys {
		if v, ok := r.String(string(k)); ok {
			s.put(k, v)
			continue
		}
		if n, ok := r.Integer(string(k)); ok && isBool(k) {
			s.put(k, strconv.FormatBool(n != 0))
		}
	}
	return s
}
