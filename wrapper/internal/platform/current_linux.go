package platform

// Current is the platform the wrapper runs on.
func Current() OS {
	return Linux{Run: ExecRunner, Paths: LinuxPaths{Proc: ProcRoot, Etc: EtcRoot, RunDir: RunRoot, Systemctl: SystemctlPath}}
}
