package preflight

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseLsof(t *testing.T) {
	out := "p812\ncmDNSResponder\nf12\np913\ncdnsmasq\nf4\nf5\np913\ncdnsmasq\npbad\ncjunk\n"
	want := []Holder{{812, "mDNSResponder"}, {913, "dnsmasq"}}
	if got := parseLsof(strings.NewReader(out)); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := parseLsof(strings.NewReader("")); got != nil {
		t.Errorf("nothing matched: %v", got)
	}
}
