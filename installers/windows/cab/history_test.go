package cab

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// historyCabinet builds, by hand, an MSZIP cabinet whose blocks each use
// the previous block's output as preset dictionary, as [MS-MCI] allows.
func historyCabinet(t testing.TB, data []byte) []byte {
	t.Helper()
	var blocks bytes.Buffer
	count := 0
	var prev []byte
	for off := 0; off < len(data); off += blockSize {
		block := data[off:min(off+blockSize, len(data))]
		var payload bytes.Buffer
		payload.Write(mszipMagic[:])
		fw, err := flate.NewWriterDict(&payload, flate.BestCompression, prev)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(block)
		fw.Close()
		p := payload.Bytes()
		var head [dataHeader]byte
		binary.LittleEndian.PutUint32(head[:], blockChecksum(p, uint16(len(p)), uint16(len(block))))
		binary.LittleEndian.PutUint16(head[4:], uint16(len(p)))
		binary.LittleEndian.PutUint16(head[6:], uint16(len(block)))
		blocks.Write(head[:])
		blocks.Write(p)
		prev = block
		count++
	}
	entry := fileEntry{size: uint32(len(data)), date: 0x5D7E, time: 0x8589, attributes: 0x20, name: "history.txt"}.marshal()
	dataAt := headerSize + folderSize + len(entry)
	cab := cabHeader{size: uint32(dataAt + blocks.Len()), filesAt: headerSize + folderSize, folders: 1, files: 1}.marshal()
	cab = append(cab, folder{dataAt: uint32(dataAt), blocks: uint16(count), compression: compressMSZIP}.marshal()...)
	cab = append(cab, entry...)
	return append(cab, blocks.Bytes()...)
}

// TestReadBlocksWithHistory: the second block only inflates with the
// first as history, and the Reader gives the original bytes.
func TestReadBlocksWithHistory(t *testing.T) {
	first := textLike(5, blockSize)
	// Block 2 repeats the start of block 1. (A whole repeated 32 KiB block
	// is another matter: cabextract 1.9 fails on it, one more reason the
	// writer compresses each block on its own.)
	data := append(bytes.Clone(first), first[:1000]...)
	cab := historyCabinet(t, data)
	second := cab[headerSize+folderSize+fileEntrySize+len("history.txt")+1:]
	second = second[dataHeader+binary.LittleEndian.Uint16(second[4:]):]
	if cb := binary.LittleEndian.Uint16(second[4:]); cb > 100 {
		t.Fatalf("second block is %d bytes: it does not refer to the first", cb)
	}
	if _, err := io.ReadAll(flate.NewReader(bytes.NewReader(second[dataHeader+2:]))); err == nil {
		t.Fatal("second block inflates without history: the test proves nothing")
	}
	got := readAll(t, cab)
	if len(got) != 1 || !bytes.Equal(got[0].data, data) {
		t.Fatal("Reader does not inflate blocks with the previous block as history")
	}
	if tool, err := exec.LookPath("cabextract"); err == nil {
		path := filepath.Join(t.TempDir(), "history.cab")
		os.WriteFile(path, cab, 0o644)
		if out, err := exec.Command(tool, "-t", path).CombinedOutput(); err != nil {
			t.Errorf("cabextract rejects the hand-made cabinet: %v\n%s", err, out)
		}
	} else {
		testenv.Unavailable(t, "cabextract not installed")
	}
}
