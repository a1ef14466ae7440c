package codesign

import (
	"bytes"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// The designated requirement in compiled form, written out by hand from
// the requirement language's opcodes: a set of one requirement of type 3
// (designated), an expression (kind 1) of prefix opcodes whose strings
// are a length and the bytes padded to 4.
func TestRequirementSetBytes(t *testing.T) {
	want := testenv.Unhex(t, `
0000: fade0c01 0000007c 00000001 00000003  set: length 124, one entry: designated
0010: 00000014                             at offset 20
0014: fade0c00 00000068 00000001           requirement: length 104, expression
0020: 00000006 00000006                    and(and(
0028: 00000002 0000001a                    identifier, 26 bytes
0030: 636f6d2e 636f6e74 726f6c64 2e637472  com.controld.ctr
0040: 6c642d69 6e737461 6c6c0000           ld-install + pad
004c: 0000000f                             anchor apple generic),
0050: 0000000b 00000000 0000000a           certificate leaf[10 bytes
005c: 7375626a 6563742e 4f550000           subject.OU + pad
0068: 00000001 0000000a                    ] = 10 bytes
0070: 5445414d 30303030 30300000           TEAM000000 + pad)
`)
	got := requirementSet("com.controld.ctrld-install", "TEAM000000")
	if !bytes.Equal(got, want) {
		t.Fatalf("requirement set\n got %x\nwant %x", got, want)
	}
	text, err := decompileDesignated(got)
	if err != nil || text != DesignatedRequirement("com.controld.ctrld-install", "TEAM000000") {
		t.Fatalf("decompiled %q, %v", text, err)
	}
}
