package proc

import "testing"

func TestProcArgsPath(t *testing.T) {
	argc := []byte{2, 0, 0, 0}
	for in, want := range map[string]string{
		string(argc) + "/Library/ControlD/ctrld\x00\x00\x00ctrld\x00start\x00": "/Library/ControlD/ctrld",
		string(argc) + "/no/terminator":                                        "",
		string(argc) + "\x00ctrld\x00":                                         "",
		"\x02\x00":                                                             "",
		"":                                                                     "",
	} {
		got, err := procArgsPath([]byte(in))
		if got != want || (err == nil) != (want != "") {
			t.Errorf("%q: got %q, %v; want %q", in, got, err, want)
		}
	}
}
