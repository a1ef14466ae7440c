package realctrld

import "os"

// Main is called first by the test binary's TestMain. Inside a namespace
// it plays init or the scenario and returns the exit code with true; on
// the host it returns false and the tests run.
func Main(scenarios map[string]Scenario) (int, bool) {
	switch os.Getenv(envStage) {
	case stageInit:
		return runInit(), true
	case stageRun:
		return runInside(scenarios, true), true
	case stageSystemdInit:
		return runSystemdInit(), true
	case stageSystemdRun:
		return runInside(scenarios, false), true
	}
	return 0, false
}
