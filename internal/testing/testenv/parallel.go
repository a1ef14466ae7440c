package testenv

import (
	"flag"
	"runtime"
	"strconv"
)

// waitingTestsPerCPU is how many tests a CPU runs at a time in a package
// whose tests mostly wait: on a child's timer, a deadline or a signal.
const waitingTestsPerCPU = 4

// RunMoreThanCPUs lets a package whose parallel tests mostly wait run
// more of them at a time than there are CPUs, the go test default. It is
// called from TestMain; a -parallel given on the command line wins.
func RunMoreThanCPUs() {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if given {
		return
	}
	flag.Set("test.parallel", strconv.Itoa(waitingTestsPerCPU*runtime.GOMAXPROCS(0)))
}
