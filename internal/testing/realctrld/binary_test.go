package realctrld

import (
	"slices"
	"testing"
)

func TestParseBinaries(t *testing.T) {
	for in, want := range map[string][]string{
		"":                       nil,
		"/a/ctrld":               {"/a/ctrld"},
		"/a/ctrld:/b/ctrld":      {"/a/ctrld", "/b/ctrld"},
		" /a/ctrld , /b/ctrld ,": {"/a/ctrld", "/b/ctrld"},
		"/a/ctrld::/a/ctrld,":    {"/a/ctrld"},
	} {
		if got := ParseBinaries(in); !slices.Equal(got, want) {
			t.Errorf("ParseBinaries(%q) = %q, want %q", in, got, want)
		}
	}
	if v := versionOf("/work/shared/ctrld/v2.0.0-pre-linux-amd64/ctrld"); v != "v2.0.0-pre-linux-amd64" {
		t.Errorf("version %q", v)
	}
}
