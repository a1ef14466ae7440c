package platform

// Current is the platform the wrapper runs on.
func Current() OS { return NewDarwin(ExecRunner) }
