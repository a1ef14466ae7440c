package release

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
)

// BenchResults maps a benchmark (without its -N suffix) to its metrics by
// unit: "ns/op", "MB/s", "B/op", "peak-RSS-MiB".
type BenchResults map[string]map[string]float64

var gomaxprocs = regexp.MustCompile(`-\d+$`)

// ParseBench reads `go test -bench` output.
func ParseBench(text string) BenchResults {
	out := BenchResults{}
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := gomaxprocs.ReplaceAllString(f[0], "")
		m := map[string]float64{}
		for i := 2; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				m[f[i+1]] = v
			}
		}
		out[name] = m
	}
	return out
}

// WriteBenchTable prints one table: the wrapper's start-up and
// success-path cost against an empty Go program (measured interleaved in
// one benchmark), the scanner's
// throughput, peak memory, and each installer's build time and size.
func WriteBenchTable(w io.Writer, r BenchResults, arts []Artifact) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "MEASURE\tVALUE\tNOTE")
	row := func(label, bench, unit, format, note string) {
		if v, ok := r[bench][unit]; ok {
			if unit == "ns/op" {
				v /= 1e9 // shown in seconds
			}
			fmt.Fprintf(tw, "%s\t"+format+"\t%s\n", label, v, note)
		}
	}
	startup := r["BenchmarkStartup"]
	if _, ok := startup["start-overhead-x"]; ok {
		fmt.Fprintf(tw, "start success path\t+%.2fx empty program\twhat ctrld-install start adds to ctrld's start+status (%.1f ms vs %.1f ms); goal: at most 1.5x\n",
			startup["start-overhead-x"], startup["start-ms"], startup["direct-ms"])
		fmt.Fprintf(tw, "minimal Go wrapper\t+%.2fx empty program\tthe least any Go wrapper adds: fork, exec and wait twice (%.1f ms)\n",
			startup["minimal-overhead-x"], startup["minimal-ms"])
		fmt.Fprintf(tw, "wrapper start-up\t%.2fx empty program\tctrld-install codes, %.1f ms; floor %.1f ms; goal: at most 1.3x\n",
			startup["codes-x"], startup["codes-ms"], startup["floor-ms"])
	}
	row("scanner throughput", "BenchmarkScanThroughput", "MB/s", "%.0f MB/s", "coloured ctrld log lines, in process")
	row("scanner, no newlines", "BenchmarkScanNoNewlines", "MB/s", "%.0f MB/s", "one endless line")
	row("wrapper on 1 GiB of output", "BenchmarkWrapperHugeOutput", "MB/s", "%.0f MB/s", "end to end, through the pipes")
	row("wrapper peak RSS, 1 GiB", "BenchmarkWrapperHugeOutput", "peak-RSS-MiB", "%.1f MiB", "goal: under 16 MiB")
	row("pkg build, 2 x 25 MB", "BenchmarkBuildPkg/25MB", "ns/op", "%.2f s", "goal: under 2 s")
	row("pkg build memory, 2 x 5 MB", "BenchmarkBuildPkg/5MB", "B/op", "%.0f B/op", "flat with payload size:")
	row("pkg build memory, 2 x 25 MB", "BenchmarkBuildPkg/25MB", "B/op", "%.0f B/op", "compare with the line above")
	for _, a := range arts {
		fmt.Fprintf(tw, "build %s\t%.2fs, %.1f KiB\t%s %s\n", a.Kind, a.Took.Seconds(), float64(a.Size)/1024, a.OS, a.Arch)
	}
	tw.Flush()
}
