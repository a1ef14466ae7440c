package macho

import (
	"bytes"
	"debug/macho"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

func darwinBinaries(t *testing.T) (amd64, arm64 string) {
	t.Helper()
	dir := t.TempDir()
	return testenv.GoBuild(t, dir, "amd64", "./testdata/fakectrld", "GOOS=darwin", "GOARCH=amd64", "CGO_ENABLED=0"),
		testenv.GoBuild(t, dir, "arm64", "./testdata/fakectrld", "GOOS=darwin", "GOARCH=arm64", "CGO_ENABLED=0")
}

func TestMergeReadsBackWithDebugMacho(t *testing.T) {
	amd64, arm64 := darwinBinaries(t)
	out := filepath.Join(t.TempDir(), "universal")
	f, _ := os.Create(out)
	if err := Merge(f, arm64, amd64); err != nil {
		t.Fatal(err)
	}
	f.Close()
	fat, err := macho.OpenFat(out)
	if err != nil {
		t.Fatal(err)
	}
	defer fat.Close()
	if len(fat.Arches) != 2 || fat.Arches[0].Cpu != macho.CpuAmd64 || fat.Arches[1].Cpu != macho.CpuArm64 {
		t.Fatalf("arches %+v", fat.Arches)
	}
	whole, _ := os.ReadFile(out)
	for i, src := range []string{amd64, arm64} {
		a := fat.Arches[i]
		want, _ := os.ReadFile(src)
		got := whole[a.Offset : a.Offset+a.Size]
		if !bytes.Equal(got, want) || a.Offset%(1<<a.Align) != 0 {
			t.Errorf("slice %d differs or is misaligned (offset %d, align %d)", i, a.Offset, a.Align)
		}
	}
}

func TestMergeRejectsBadInput(t *testing.T) {
	amd64, _ := darwinBinaries(t)
	junk := filepath.Join(t.TempDir(), "junk")
	os.WriteFile(junk, []byte("#!/bin/sh\n"), 0o755)
	if err := Merge(io.Discard, amd64, junk); err == nil {
		t.Fatal("merged a shell script")
	}
	if err := Merge(io.Discard, amd64, amd64); err == nil {
		t.Fatal("merged two amd64 slices")
	}
}
