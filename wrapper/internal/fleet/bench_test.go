package fleet

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

// BenchmarkRead100kRows reads a Jamf-shaped export of 100,000 computers.
func BenchmarkRead100kRows(b *testing.B) {
	var export bytes.Buffer
	export.WriteString("Computer Name,Serial Number,Operating System Version,Last Check-in,ctrld provisioning\n")
	for i := 0; i < 100_000; i++ {
		line := codes.Success.Line()
		if i%3 == 0 {
			line = codes.Failure(codes.Table[i%len(codes.Table)]).Line()
		}
		fmt.Fprintf(&export, "MAC-%06d,C02X%06dJGH5,14.5,2026-11-30 09:12:44,%s\n", i, i, line)
	}
	b.SetBytes(int64(export.Len()))
	for b.Loop() {
		tl := NewTally()
		if err := tl.Read(bytes.NewReader(export.Bytes()), ""); err != nil {
			b.Fatal(err)
		}
		tl.WriteHTML(io.Discard)
	}
}
