package windows

import "regexp"

// The provisioning action's command line quotes each property as
// "[PROP]". A value holding a double quote would close that argument and
// add flags of its own, which the action then runs as LocalSystem; a
// backslash before the closing quote escapes it, to the same end. The
// install is refused before any action runs when a property formatted
// into the command line holds either.

// Private properties (mixed case: msiexec's command line cannot set them)
// holding the two characters, for the conditions to compare against.
const (
	propQuote     = "CtrldQuote"
	propBackslash = "CtrldBackslash"
)

var formattedProperty = regexp.MustCompile(`\[([A-Z_][A-Z0-9_.]*)\]`)

// commandLineProperties are the properties formatted into a command line,
// in order.
func commandLineProperties(command string) []string {
	var props []string
	for _, m := range formattedProperty.FindAllStringSubmatch(command, -1) {
		props = append(props, m[1])
	}
	return props
}

// argumentGuard is the launch condition that holds when prop is safe to
// quote on a command line.
func argumentGuard(prop string) launchConditionRow {
	condition := "NOT (" + prop + " >< " + propQuote + " OR " + prop + " >< " + propBackslash + ")"
	return launchConditionRow{Condition: condition,
		Description: prop + " must not contain a double quote or a backslash: it is passed on the command line of the provisioning action."}
}

// addArgumentGuards adds the characters' properties and one launch
// condition for each property of the provisioning command line.
func addArgumentGuards(rows *packageRows) {
	rows.Property = append(rows.Property, propertyRow{Property: propQuote, Value: `"`}, propertyRow{Property: propBackslash, Value: `\`})
	for _, prop := range commandLineProperties(provisionCommand) {
		rows.LaunchCondition = append(rows.LaunchCondition, argumentGuard(prop))
	}
}
