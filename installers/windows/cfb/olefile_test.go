package cfb

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// systemPython is Debian's interpreter, which has python3-olefile; the
// python3 first on PATH may be another one.
const systemPython = "/usr/bin/python3"

// olefileScript opens a file strictly (any defect raises) and prints the
// root CLSID, then one line per stream: hex name units, size, hex bytes.
const olefileScript = `
import sys, olefile
ole = olefile.OleFileIO(sys.argv[1], raise_defects=olefile.DEFECT_INCORRECT)
if ole.parsing_issues:
    sys.exit("parsing issues: %r" % ole.parsing_issues)
print(ole.root.clsid)
for path in sorted(ole.listdir(streams=True, storages=False)):
    name = "/".join(path)
    data = ole.openstream(path).read()
    print(name.encode("utf-16-le").hex(), len(data), data.hex())
`

func requireOlefile(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(systemPython); err != nil {
		testenv.Unavailable(t, "%s not installed", systemPython)
	}
	if err := exec.Command(systemPython, "-c", "import olefile").Run(); err != nil {
		testenv.Unavailable(t, "python3-olefile not installed: %v", err)
	}
}

func olefileListing(t *testing.T, file []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.cfb")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(systemPython, "-c", olefileScript, path).CombinedOutput()
	if err != nil {
		t.Fatalf("olefile rejects the file: %v\n%s", err, out)
	}
	return sortedLines(string(out))
}

// sortedLines keeps the first line (the CLSID) and sorts the rest.
func sortedLines(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	sort.Strings(lines[1:])
	return strings.Join(lines, "\n")
}

func expectedListing(clsid string, streams map[string][]byte) string {
	var lines []string
	for name, data := range streams {
		lines = append(lines, fmt.Sprintf("%s %d %s", utf16Hex(name), len(data), hex.EncodeToString(data)))
	}
	return sortedLines(strings.Join(append([]string{clsid}, lines...), "\n"))
}

func utf16Hex(name string) string {
	units, _ := encodeName(name)
	var b bytes.Buffer
	for _, u := range units {
		fmt.Fprintf(&b, "%02x%02x", byte(u), byte(u>>8))
	}
	return b.String()
}

func TestOlefileReadsWriterOutput(t *testing.T) {
	requireOlefile(t)
	cases := map[string]map[string][]byte{
		"empty": {},
		"msi-like": {
			"\x05SummaryInformation":               pseudoRandom(1, 460),
			string([]rune{0x4840, 0x430F, 0x422F}): pseudoRandom(2, 40),
			string([]rune{0x45E6, 0x43F5, 0x47A7}): pseudoRandom(3, 20000),
			"zero":                                 {},
			"cutoff":                               pseudoRandom(4, 4096),
			"below":                                pseudoRandom(5, 4095),
		},
		"difat": {"big": pseudoRandom(6, 8<<20), "tiny": {1}},
	}
	many := map[string][]byte{}
	for i := range 300 {
		many[fmt.Sprintf("s%03d", i)] = pseudoRandom(uint64(i), i*31%6000)
	}
	cases["many"] = many
	for name, streams := range cases {
		t.Run(name, func(t *testing.T) {
			got := olefileListing(t, build(t, msiCLSID, streams))
			want := expectedListing("000C1084-0000-0000-C000-000000000046", streams)
			if got != want {
				t.Errorf("olefile listing differs\n got %.300s\nwant %.300s", got, want)
			}
		})
	}
}
