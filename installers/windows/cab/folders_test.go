package cab

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// twoFolderCabinet builds, by hand, a cabinet with an MSZIP folder
// holding "a" (taken from the Writer's output) and an uncompressed
// folder holding "b" in two blocks.
func twoFolderCabinet(t testing.TB, a, b []byte) []byte {
	t.Helper()
	single := build(t, []testFile{{"a", a}})
	mszipBlocks := single[firstFile+fileEntrySize+2:]
	mszipCount := binary.LittleEndian.Uint16(single[headerSize+4:])
	var stored bytes.Buffer
	storedCount := 0
	for off := 0; off < len(b); off += blockSize {
		block := b[off:min(off+blockSize, len(b))]
		var head [dataHeader]byte
		binary.LittleEndian.PutUint32(head[:], blockChecksum(block, uint16(len(block)), uint16(len(block))))
		binary.LittleEndian.PutUint16(head[4:], uint16(len(block)))
		binary.LittleEndian.PutUint16(head[6:], uint16(len(block)))
		stored.Write(head[:])
		stored.Write(block)
		storedCount++
	}
	entries := append(
		fileEntry{size: uint32(len(a)), date: 0x5D7E, time: 0x8589, attributes: 0x20, name: "a"}.marshal(),
		fileEntry{size: uint32(len(b)), folder: 1, date: 0x5D7E, time: 0x8589, attributes: 0x20, name: "b"}.marshal()...)
	filesAt := headerSize + 2*folderSize
	dataAt := filesAt + len(entries)
	total := dataAt + len(mszipBlocks) + stored.Len()
	cab := cabHeader{size: uint32(total), filesAt: uint32(filesAt), folders: 2, files: 2}.marshal()
	cab = append(cab, folder{dataAt: uint32(dataAt), blocks: mszipCount, compression: compressMSZIP}.marshal()...)
	cab = append(cab, folder{dataAt: uint32(dataAt + len(mszipBlocks)), blocks: uint16(storedCount), compression: compressNone}.marshal()...)
	cab = append(cab, entries...)
	cab = append(cab, mszipBlocks...)
	return append(cab, stored.Bytes()...)
}

func TestReadTwoFolders(t *testing.T) {
	a, b := textLike(1, 2*blockSize+7), pseudoRandom(2, blockSize+100)
	cab := twoFolderCabinet(t, a, b)
	got := readAll(t, cab)
	if len(got) != 2 || !bytes.Equal(got[0].data, a) || !bytes.Equal(got[1].data, b) {
		t.Fatal("files of two folders differ")
	}
	// cabextract confirms the hand-made cabinet is valid.
	tool := testenv.RequireTool(t, "cabextract")
	path := filepath.Join(t.TempDir(), "two.cab")
	if err := os.WriteFile(path, cab, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(tool, "-t", path).CombinedOutput(); err != nil {
		t.Errorf("cabextract -t: %v\n%s", err, out)
	}
}
