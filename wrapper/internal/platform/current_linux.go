package platform

// Current is the platform the wrapper runs on.
func Current() OS {
	return Linux{Run: ExecRunner, Proc: ProcRoot, Etc: EtcRoot, RunDir: RunRoot, Systemctl: SystemctlPath}
}
