package realctrld

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
)

// envReport names the report file a phase writes in the scenario folder.
const envReport = "REALCTRLD_REPORT"

// testBinary is the test binary's name in the share folder: inside the
// container it runs the scenario's phases.
const testBinary = "realctrld.test"

// reportName is the file this scenario process writes its report to.
func reportName() string {
	if n := os.Getenv(envReport); n != "" && filepath.Base(n) == n {
		return n
	}
	return reportFile
}

// systemdSandbox is a scenario on a real systemd: a fresh overlay over
// the cached root file system, booted (and rebooted) as a container, with
// the scenario's phases run inside one after the other. Its methods
// return errors instead of failing a test, so scenarios can run in
// goroutines; the host state is compared when it is closed.
type systemdSandbox struct {
	*sandbox
	rootfs  string
	hostNS  map[string]string
	c       *container
	phases  int
	before  hostState
	sysctls map[string]string
	// Boots are how long each boot took to reach running, PowerOffs how
	// long each power off took.
	Boots, PowerOffs []time.Duration
	// HostDiffs is what the scenario changed on the host; Leftovers are
	// processes of its containers that outlived a power off.
	HostDiffs []string
	Leftovers []string
	// BootStates are `systemctl --failed` after each boot, before the
	// scenario did anything.
	BootStates []string
}

// newSystemdSandbox prepares a scenario folder with the test binary in
// its share folder, and notes the host's state.
func newSystemdSandbox(t *testing.T, name, rootfs string) *systemdSandbox {
	t.Helper()
	s := &systemdSandbox{sandbox: prepareSandbox(t, name), rootfs: rootfs}
	testenv.RequireTool(t, "nsenter")
	if cgroup2Root() == "" {
		testenv.Unavailable(t, "no cgroup2 tree (%s) for the container", strings.Join(cgroup2Trees, " or "))
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := linkOrCopy(self, filepath.Join(s.shareDir(), testBinary)); err != nil {
		t.Fatal(err)
	}
	if s.hostNS, err = hostNamespaces(); err != nil {
		t.Fatal(err)
	}
	s.before, s.sysctls = snapshotHost(), hostSysctls(rootfs)
	return s
}

func linkOrCopy(src, dst string) error {
	if os.Link(src, dst) == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// boot starts the container and waits for systemd to finish booting.
func (s *systemdSandbox) boot() error {
	if s.c != nil {
		return fmt.Errorf("%s: already booted", s.Name)
	}
	start := time.Now()
	c, err := bootContainer(s.Work, s.rootfs, s.Name, s.hostNS)
	if err != nil {
		return fmt.Errorf("%s: boot: %w", s.Name, err)
	}
	s.c = c
	s.Boots = append(s.Boots, time.Since(start))
	out, _ := c.exec(30*time.Second, nil, "systemctl", "--failed", "--no-legend", "--plain", "--no-pager")
	s.BootStates = append(s.BootStates, strings.TrimSpace(string(out)))
	return nil
}

// booted says whether the container runs.
func (s *systemdSandbox) booted() bool { return s.c != nil }

// powerOff stops the container: systemd's own power off, bounded, then a
// kill of what is left.
func (s *systemdSandbox) powerOff() error {
	if s.c == nil {
		return nil
	}
	c := s.c
	s.c = nil
	start := time.Now()
	err := c.powerOff()
	s.PowerOffs = append(s.PowerOffs, time.Since(start))
	s.Leftovers = append(s.Leftovers, c.leftovers()...)
	if err != nil {
		return fmt.Errorf("%s: %w", s.Name, err)
	}
	return nil
}

// reboot powers the container off and boots it again on the same
// overlay, in fresh namespaces: whatever addresses the scenario added to
// lo are gone, so the machine comes back with no network.
func (s *systemdSandbox) reboot() error {
	if err := s.powerOff(); err != nil {
		return err
	}
	return s.boot()
}

// phase runs one registered scenario inside the booted container and
// adds its report to the sandbox's.
func (s *systemdSandbox) phase(scenario string, limit time.Duration) error {
	if s.c == nil {
		return fmt.Errorf("%s: phase %s: not booted", s.Name, scenario)
	}
	s.phases++
	name := "report-" + strconv.Itoa(s.phases) + ".json"
	start := time.Now()
	out, err := s.c.exec(limit, []string{envStage + "=" + stageSystemdRun, envName + "=" + scenario, envReport + "=" + name},
		shareInside+"/"+testBinary)
	s.Took += time.Since(start)
	s.Output += string(out)
	if err != nil {
		return fmt.Errorf("%s: phase %s: %v\n%s", s.Name, scenario, err, out)
	}
	data, err := os.ReadFile(filepath.Join(s.Work, name))
	if err != nil {
		return fmt.Errorf("%s: phase %s wrote no report: %v\n%s", s.Name, scenario, err, out)
	}
	var r report
	if err := json.Unmarshal(data, &r); err != nil {
		return err
	}
	s.merge(r)
	if r.Error != "" {
		return fmt.Errorf("%s: phase %s: %s", s.Name, scenario, r.Error)
	}
	return nil
}

func (s *systemdSandbox) merge(r report) {
	if s.Report == nil {
		s.Report = &report{ProcessSnapshots: map[string][]process{}}
	}
	m := s.Report
	m.Steps = append(m.Steps, r.Steps...)
	m.Snapshots = append(m.Snapshots, r.Snapshots...)
	m.Processes = append(m.Processes, r.Processes...)
	for k, v := range r.ProcessSnapshots {
		m.ProcessSnapshots[k] = v
	}
	m.API = append(m.API, r.API...)
	m.PidNamespace = r.PidNamespace
	if m.Error == "" {
		m.Error = r.Error
	}
}

// Close powers off what still runs and compares the host with how it was
// before the scenario.
func (s *systemdSandbox) Close() error {
	err := s.powerOff()
	s.HostDiffs = append(s.before.compare(snapshotHost()), compareSysctls(s.sysctls, hostSysctls(s.rootfs))...)
	return err
}

// console is what the container's console printed over all its boots.
func (s *systemdSandbox) console() string {
	data, _ := os.ReadFile(consolePath(s.Work))
	return string(data)
}

// checkSystemdCanary is checkCanary plus the container's console.
func (s *systemdSandbox) checkSystemdCanary(t *testing.T, inputs ...string) {
	t.Helper()
	if s.Report != nil {
		s.checkCanary(t, inputs...)
	}
	if strings.Contains(s.console(), testenv.Canary) {
		t.Errorf("%s: the token is on the container's console", s.Name)
	}
}

// checkHost fails the test when the scenario changed the host or left a
// process behind.
func (s *systemdSandbox) checkHost(t *testing.T) {
	t.Helper()
	if len(s.HostDiffs) > 0 {
		t.Errorf("scenario %s changed the host:\n%s", s.Name, strings.Join(s.HostDiffs, "\n"))
	}
	if len(s.Leftovers) > 0 {
		t.Errorf("processes of scenario %s outlived its container: %v", s.Name, s.Leftovers)
	}
}
