package realctrld

import "os"

// stageMain is called first by the test binary's TestMain. Inside a namespace
// it plays init or the scenario and returns the exit code with true; on
// the host it returns false and the tests run.
func stageMain(scenarios map[string]scenario) (int, bool) {
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
