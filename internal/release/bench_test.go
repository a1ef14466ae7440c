package release

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestBenchTable(t *testing.T) {
	out := `goos: linux
BenchmarkStartup-2   	       2	 426526458 ns/op	         4.385 codes-ms	         2.233 codes-x	         5.140 direct-ms	         1.964 floor-ms	        14.40 start-ms	         4.718 start-overhead-x	         8.100 minimal-ms	         1.420 minimal-overhead-x
BenchmarkWrapperHugeOutput-2   	      10	2000000000 ns/op	 538.30 MB/s	         7.188 peak-RSS-MiB
BenchmarkScanThroughput-2   	   17383	     68638 ns/op	 600.25 MB/s	       0 B/op	       0 allocs/op
BenchmarkBuildPkg/25MB-2        	       3	 975821571 ns/op	  53.73 MB/s	 5098058 B/op	     651 allocs/op
PASS`
	r := ParseBench(out)
	if r["BenchmarkWrapperHugeOutput"]["peak-RSS-MiB"] != 7.188 || r["BenchmarkBuildPkg/25MB"]["B/op"] != 5098058 {
		t.Fatalf("parsed %v", r)
	}
	var b bytes.Buffer
	WriteBenchTable(&b, r, []Artifact{{Kind: "deb", OS: "linux", Arch: "amd64", Size: 2048, Took: 1500 * time.Millisecond}})
	for _, want := range []string{"+4.72x empty program", "14.4 ms vs 5.1 ms", "2.23x empty program", "floor 2.0 ms", "+1.42x empty program", "(8.1 ms)", "600 MB/s", "7.2 MiB", "build deb", "1.50s, 2.0 KiB"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}
