//go:build linux

package realctrld

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// systemdScenario is a scenario on a real systemd: phases run inside the
// container, with host actions (a reboot, a wait) between them.
type systemdScenario struct {
	name    string
	actions []action
	judge   func(t *testing.T, s *systemdSandbox)
}

// action is one host-side step of a scenario: run a registered phase
// inside, reboot the container, or wait (without holding a core).
type action struct {
	phase  string
	reboot bool
	wait   time.Duration
}

// Bounds on a phase inside, and how many containers work at once on the
// machine's two cores: a container spends most of its phase waiting on
// ctrld and dpkg, so two per core keep the cores busy without starving
// a boot.
const (
	phaseLimit   = 10 * time.Minute
	maxContainer = 4
)

// systemdScenarios, in the order they start: the one with the long wait
// first, so the wait overlaps the others.
var systemdScenarios = []systemdScenario{
	{"deb-success", []action{{phase: "systemd-deb-success"}, {wait: pastRestartSec}, {phase: "systemd-deb-success-later"}}, judgeDebSuccess},
	{"offline-purge", []action{{phase: "systemd-provision-deb"}, {reboot: true}, {phase: "systemd-offline-purge"}}, judgeOfflinePurge},
	{"offline-erase", []action{{phase: "systemd-provision-rpm"}, {reboot: true}, {phase: "systemd-offline-erase"}}, judgeOfflineErase},
	{"offline-upgrade", []action{{phase: "systemd-provision-deb"}, {reboot: true}, {phase: "systemd-offline-upgrade"}}, judgeOfflineUpgrade},
	{"token-rejected", []action{{phase: "systemd-token-rejected"}}, judgeTokenRejected},
	{"route-to-nowhere", []action{{phase: "systemd-route-to-nowhere"}}, judgeRouteToNowhere},
	{"docs-install-then-deb", []action{{phase: "systemd-docs-install-then-deb"}}, judgeDocsInstall},
}

func init() {
	for name, phase := range systemdPhases {
		scenarios[name] = phase
	}
}

// systemdRun is one scenario's run, judged after all have ended.
type systemdRun struct {
	scenario systemdScenario
	label    string
	sandbox  *systemdSandbox
	errs     []error
}

// TestSystemd runs every scenario on a real systemd booted in
// namespaces, for each real ctrld named, at most maxContainer containers at once,
// then judges each and prints the table of lines, exit codes and times.
func TestSystemd(t *testing.T) {
	t.Parallel()
	binaries := firstLineBinaries(t)
	rootfs, err := systemdRootfs()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var runs []*systemdRun
	for _, ctrld := range binaries {
		dir := artifactsOf(t, ctrld.Path)
		for _, sc := range systemdScenarios {
			s := newSystemdSandbox(t, ctrld.Version+"-"+sc.name, rootfs)
			for _, n := range []string{shareCtrld, shareWrapper, shareDeb, shareRPM, shareUpgradeDeb} {
				if err := os.Link(filepath.Join(dir, n), filepath.Join(s.shareDir(), n)); err != nil {
					t.Fatal(err)
				}
			}
			runs = append(runs, &systemdRun{scenario: sc, label: ctrld.Version, sandbox: s})
		}
	}
	// Each scenario's first boot takes its core here, so they start in
	// order; later actions wait for a core themselves.
	cores := make(chan struct{}, maxContainer)
	var wg sync.WaitGroup
	for _, run := range runs {
		cores <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			run.play(cores)
		}()
	}
	wg.Wait()
	took := time.Since(start)
	for _, run := range runs {
		t.Run(run.label+"/"+run.scenario.name, func(t *testing.T) {
			s := run.sandbox
			s.checkHost(t)
			s.checkSystemdCanary(t, settingsFile)
			for _, err := range run.errs {
				t.Error(err)
			}
			if s.Report == nil {
				t.Fatalf("no report\n%s", s.Output)
			}
			run.scenario.judge(t, s)
		})
	}
	t.Log("\n" + systemdTable(runs, took))
}

// play runs a scenario's actions, holding a core for each boot and phase
// and none while it waits; it starts holding one. The container is always
// powered off.
func (run *systemdRun) play(cores chan struct{}) {
	s := run.sandbox
	defer func() {
		if err := s.Close(); err != nil {
			run.errs = append(run.errs, err)
		}
	}()
	for i, a := range run.scenario.actions {
		if a.wait > 0 {
			if i == 0 {
				<-cores
			}
			time.Sleep(a.wait)
			continue
		}
		if i > 0 {
			cores <- struct{}{}
		}
		err := run.act(a)
		<-cores
		if err != nil {
			run.errs = append(run.errs, err)
			return
		}
	}
}

func (run *systemdRun) act(a action) error {
	s := run.sandbox
	if a.reboot {
		return s.reboot()
	}
	if !s.booted() {
		if err := s.boot(); err != nil {
			return err
		}
	}
	return s.phase(a.phase, phaseLimit)
}

// systemdTable is every scenario's steps: the wrapper's line, the exit
// code and the time, with each boot's time and the tier's run time.
func systemdTable(runs []*systemdRun, took time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-46s %-34s %5s %7s  %s\n", "scenario", "step", "exit", "time", "line")
	for _, run := range runs {
		s := run.sandbox
		name := run.label + "/" + run.scenario.name
		for i, d := range s.Boots {
			fmt.Fprintf(&b, "%-46s %-34s %5s %6.1fs\n", name, fmt.Sprintf("boot %d", i+1), "", d.Seconds())
		}
		for i, d := range s.PowerOffs {
			fmt.Fprintf(&b, "%-46s %-34s %5s %6.1fs\n", name, fmt.Sprintf("power off %d", i+1), "", d.Seconds())
		}
		if s.Report == nil {
			continue
		}
		for _, st := range s.Report.Steps {
			if isQuery(st) {
				continue
			}
			fmt.Fprintf(&b, "%-46s %-34s %5d %6.1fs  %s\n", name, st.Name, st.Exit, st.Duration.Seconds(), redact(summary(st)))
		}
	}
	fmt.Fprintf(&b, "tier run time: %.1fs for %d scenarios, at most %d containers at once\n", took.Seconds(), len(runs), maxContainer)
	return b.String()
}
