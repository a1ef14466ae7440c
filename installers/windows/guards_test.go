//go:build linux

package windows

import (
	"bytes"
	"os"
	"reflect"
	"strconv"
	"testing"

	"github.com/ctrld-install/ctrld-install/installers/windows/cfb"
	"github.com/ctrld-install/ctrld-install/installers/windows/msidb"
)

// The provisioning command line quotes the property of every setting, and
// each has a launch condition refusing a quote or a backslash.
func TestEveryQuotedPropertyIsGuarded(t *testing.T) {
	quoted := commandLineProperties(provisionCommand)
	if want := Properties; len(want) == 0 || !reflect.DeepEqual(quoted, want) {
		t.Fatalf("the command line quotes %v, want %v", quoted, want)
	}
	ctrld, wrapper := fakeExes(t)
	msi := buildMSI(t, pkg(ArchX64, ctrld, wrapper))
	ours := readTables(t, msi)
	for name, read := range map[string]func(table string) [][]string{
		"msiinfo": func(name string) [][]string { return table(t, msi, name) },
		"msidb":   func(table string) [][]string { return ours[table] },
	} {
		props := read("Property")
		if r := row(props, propQuote); r == nil || r[1] != `"` {
			t.Errorf("%s: %s is %v", name, propQuote, r)
		}
		if r := row(props, propBackslash); r == nil || r[1] != `\` {
			t.Errorf("%s: %s is %v", name, propBackslash, r)
		}
		conditions := read("LaunchCondition")
		for _, p := range quoted {
			want := "NOT (" + p + " >< CtrldQuote OR " + p + " >< CtrldBackslash)"
			if r := row(conditions, want); r == nil || r[1] == "" {
				t.Errorf("%s: no launch condition %q in %q", name, want, conditions)
			}
		}
	}
}

// readTables reads every table with the project's own reader, cells as
// msiinfo prints them.
func readTables(t *testing.T, msi string) map[string][][]string {
	t.Helper()
	data, err := os.ReadFile(msi)
	if err != nil {
		t.Fatal(err)
	}
	c, err := cfb.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	r, err := msidb.NewReader(msidb.CompoundFile(c))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][][]string{}
	for _, tb := range r.Tables {
		for _, rw := range tb.Rows {
			cells := make([]string, len(rw))
			for i, cell := range rw {
				switch c := cell.(type) {
				case string:
					cells[i] = c
				case int:
					cells[i] = strconv.Itoa(c)
				}
			}
			out[tb.Name] = append(out[tb.Name], cells)
		}
	}
	return out
}
