package settings

// PolicyKeyPath is the Windows policy key Intune and group policy write,
// under HKEY_LOCAL_MACHINE.
const PolicyKeyPath = `SOFTWARE\Policies\ControlD\ctrld`
