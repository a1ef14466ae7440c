package codes

// Class says whether the same install, run again minutes later with
// nothing changed, can succeed. Intune's return-code types follow it:
// a transient code is `retry`, a terminal one `failed`.
type Class string

const (
	// Transient failures can clear by themselves: the network, the API,
	// a timeout, another install running, a cancelled run, settings still
	// on their way.
	Transient Class = "transient"
	// Terminal failures repeat until someone changes something: a token,
	// a setting, the machine's DNS set-up, the package.
	Terminal Class = "terminal"
)

// ClassOf is a code's class. A code the table does not know (from a newer
// ctrld) is terminal: nothing says a retry would help.
func ClassOf(c Code) Class {
	if c.Class == "" {
		return Terminal
	}
	return c.Class
}
