package macos

import (
	"encoding/binary"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/names"
)

// syntheticMachO writes a thin arm64 Mach-O header followed by size bytes
// of incompressible data: the shape of a real ctrld for the builder.
func syntheticMachO(b *testing.B, dir, name string, size int) string {
	hdr := make([]byte, 32)
	binary.LittleEndian.PutUint32(hdr[0:], 0xFEEDFACF)
	binary.LittleEndian.PutUint32(hdr[4:], 0x0100000C) // arm64
	binary.LittleEndian.PutUint32(hdr[12:], 2)         // MH_EXECUTE
	body := make([]byte, size)
	rand.New(rand.NewSource(int64(size))).Read(body)
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, append(hdr, body...), 0o755); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkBuildPkg builds the pkg around two binaries of each size. B/op
// staying flat from 5 MB to 25 MB shows the payload is streamed, not held
// in memory.
func BenchmarkBuildPkg(b *testing.B) {
	for _, mb := range []int{5, 25} {
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			dir := b.TempDir()
			p := Package{
				Identifier: names.PkgIdentifier, Version: "1.0.0", CtrldName: "ctrld", MTime: epoch,
				Ctrld:   []string{syntheticMachO(b, dir, "ctrld", mb<<20)},
				Wrapper: []string{syntheticMachO(b, dir, "ctrld-install", mb<<20)},
			}
			b.SetBytes(int64(2 * mb << 20))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Build(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
