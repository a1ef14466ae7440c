// Command minwrapper is the least a Go wrapper can do on the success
// path: fork and exec ctrld start, read its output, then ctrld status,
// and exit. The startup benchmark runs it as the reachable floor for
// ctrld-install start; it is never shipped.
package main

import (
	"os"
	"syscall"

	"github.com/ctrld-install/ctrld-install/internal/names"
)

func main() {
	ctrld := os.Args[1]
	var out [2]int
	if err := syscall.Pipe(out[:]); err != nil {
		os.Exit(1)
	}
	syscall.CloseOnExec(out[0])
	syscall.CloseOnExec(out[1])
	done := make(chan struct{})
	go func() {
		buf := make([]byte, 32<<10)
		for {
			if n, err := syscall.Read(out[0], buf); n <= 0 || err != nil {
				break
			}
		}
		close(done)
	}()
	run(out[1], ctrld, "start", "--cd-org="+os.Getenv(names.TokenEnv))
	syscall.Close(out[1])
	<-done
	null, err := syscall.Open(os.DevNull, syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		os.Exit(1)
	}
	if run(null, ctrld, "status") != 0 {
		os.Exit(1)
	}
	os.Stdout.WriteString("provisioning complete (exit 0)\n")
}

// run starts ctrld with stdout and stderr on fd and returns its exit code.
func run(fd int, argv ...string) int {
	attr := &syscall.ProcAttr{Env: os.Environ(), Files: []uintptr{uintptr(fd), uintptr(fd), uintptr(fd)},
		Sys: &syscall.SysProcAttr{Setpgid: true}}
	pid, err := syscall.ForkExec(argv[0], argv, attr)
	if err != nil {
		return -1
	}
	var status syscall.WaitStatus
	for {
		if _, err := syscall.Wait4(pid, &status, 0, nil); err != syscall.EINTR {
			break
		}
	}
	return status.ExitStatus()
}
