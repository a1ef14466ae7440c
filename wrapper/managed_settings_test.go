//go:build linux

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/testdata/fakectrld/tokenhash"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/managed/plisttest"
)

// maxRSSMiB is the contract's bound on the wrapper's peak memory while it
// reads managed settings of any shape.
const maxRSSMiB = 32

// hangGuard only catches a hang; it is no timing test.
const hangGuard = 30 * time.Second

type wrapperRun struct {
	exit   int
	stdout string
	rssMiB int64
	took   time.Duration
}

// startWrapper runs ctrld-install start against the fake ctrld in work,
// with the token only where the flags put it.
func startWrapper(t *testing.T, work, syslogPath string, args ...string) wrapperRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	full := append([]string{"start", "--ctrld", filepath.Join(binDir, "ctrld"), "--home", filepath.Join(work, "home"),
		"--service-file", filepath.Join(work, "svc", "ctrld.service"), "--prefs-wait", "0"}, args...)
	// GNU time reports the wrapper's own peak RSS. The wrapper's rusage
	// as seen from here would not: a child exec'd by Go starts with the
	// test process's high-water mark. (busybox time reports four times
	// the real figure.)
	rssFile := filepath.Join(t.TempDir(), "rss")
	timeArgs := append([]string{"-f", "%M", "-o", rssFile, filepath.Join(binDir, "ctrld-install")}, full...)
	cmd := exec.CommandContext(ctx, testenv.RequireTool(t, "time"), timeArgs...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"),
		"FAKE_CTRLD_SCENARIO=" + filepath.Join(work, "scenario"),
		"FAKE_CTRLD_HOME=" + filepath.Join(work, "home"),
		"FAKE_CTRLD_RECORD=" + filepath.Join(work, "calls"),
		"FAKE_CTRLD_SERVICE_FILE=" + filepath.Join(work, "svc", "ctrld.service"),
		syslogSocketEnv + "=" + syslogPath}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	began := time.Now()
	exit, err := testenv.ExitCode(cmd.Run())
	took := time.Since(began)
	if err != nil {
		t.Fatal(err)
	}
	if ctx.Err() != nil {
		t.Fatalf("ctrld-install hung (%v)", hangGuard)
	}
	if stderr.Len() != 0 || strings.Contains(stdout.String(), testenv.Canary) {
		t.Fatalf("stderr %q / stdout %q", stderr.String(), stdout.String())
	}
	kib, err := os.ReadFile(rssFile)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(kib)), "\n")
	rss, err := strconv.ParseInt(lines[len(lines)-1], 10, 64)
	if err != nil {
		t.Fatalf("time wrote %q", kib)
	}
	return wrapperRun{exit: exit, stdout: stdout.String(), rssMiB: rss / 1024, took: took}
}

func newWork(t *testing.T) string {
	work := t.TempDir()
	os.MkdirAll(filepath.Join(work, "svc"), 0o755)
	return work
}

// Every hostile shape of managed preferences, up to the cap, is read in
// bounded memory by the real wrapper: peak RSS under the contract's bound.
func TestHostileManagedPrefsStayInBoundedMemory(t *testing.T) {
	for name, data := range plisttest.All(testenv.Canary, settings.MaxValueLen) {
		t.Run(name, func(t *testing.T) {
			work := newWork(t)
			prefs := filepath.Join(work, "prefs.plist")
			os.WriteFile(prefs, data, 0o644)
			log, err := listenSyslog()
			if err != nil {
				t.Fatal(err)
			}
			defer log.close()
			r := startWrapper(t, work, log.path, "--prefs", prefs, "--settings", filepath.Join(work, "none"))
			t.Logf("%s: %d bytes, exit %d, peak RSS %d MiB, %v", name, len(data), r.exit, r.rssMiB, r.took)
			if r.rssMiB > maxRSSMiB {
				t.Fatalf("peak RSS %d MiB over %d MiB", r.rssMiB, maxRSSMiB)
			}
			want := 0
			if plisttest.Unreadable[name] {
				want = 61
			}
			if r.exit != want {
				t.Fatalf("exit %d, want %d: %s", r.exit, want, r.stdout)
			}
			if found := testenv.FilesWithCanary(work, prefs); len(found) > 0 || strings.Contains(log.text(), testenv.Canary) {
				t.Fatalf("canary leaked: %v", found)
			}
		})
	}
}

var docsSettingsExample = regexp.MustCompile("(?s)## The settings file\n.*?```\n(.*?)```\n")

// The settings-file example of docs/linux.md, as printed with only the
// token placeholder filled in, provisions with what it says.
func TestDocsSettingsExampleProvisions(t *testing.T) {
	testenv.RequireRoot(t, "only a settings file root owns counts")
	doc, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "docs", "linux.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := docsSettingsExample.FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/linux.md has no settings-file example")
	}
	conf := bytes.Replace(m[1], []byte("<token from the Control D dashboard>"), []byte(testenv.Canary), 1)
	if bytes.Equal(conf, m[1]) {
		t.Fatal("the example has no token placeholder to fill in")
	}
	work := newWork(t)
	path := filepath.Join(work, "ctrld-install.conf")
	os.WriteFile(path, conf, 0o600)
	log, err := listenSyslog()
	if err != nil {
		t.Fatal(err)
	}
	defer log.close()
	r := startWrapper(t, work, log.path, "--settings", path)
	if r.exit != 0 {
		t.Fatalf("the doc's example fails: %s", r.stdout)
	}
	calls, _ := os.ReadFile(filepath.Join(work, "calls"))
	want := "start --cd-org=sha256:" + tokenhash.Of(testenv.Canary) + " --custom-hostname=web-01\n"
	if !strings.HasPrefix(string(calls), want) {
		t.Fatalf("ctrld got %q, want %q", calls, want)
	}
	if found := testenv.FilesWithCanary(work, path); len(found) > 0 || strings.Contains(log.text(), testenv.Canary) {
		t.Fatalf("canary leaked: %v", found)
	}
}

// A settings file that is not a root-owned regular file gives no settings,
// and the OS log says why.
func TestSettingsFileMustBeRootOwnedRegular(t *testing.T) {
	testenv.RequireRoot(t, "making a file owned by another user")
	body := []byte("ProvisionToken=" + testenv.Canary + "\n")
	for name, tc := range map[string]struct {
		make func(path string) error
		why  string
	}{
		"owned by uid 1000": {func(p string) error { os.WriteFile(p, body, 0o600); return os.Chown(p, 1000, 0) }, "not owned by root"},
		"a symlink": {func(p string) error {
			os.WriteFile(p+".real", body, 0o600)
			return os.Symlink(p+".real", p)
		}, "not a regular file"},
		"a FIFO": {func(p string) error { return syscall.Mkfifo(p, 0o600) }, "not a regular file"},
	} {
		t.Run(name, func(t *testing.T) {
			work := newWork(t)
			path := filepath.Join(work, "ctrld-install.conf")
			if err := tc.make(path); err != nil {
				t.Fatal(err)
			}
			log, err := listenSyslog()
			if err != nil {
				t.Fatal(err)
			}
			defer log.close()
			r := startWrapper(t, work, log.path, "--settings", path)
			if r.exit != 61 {
				t.Fatalf("exit %d: %s", r.exit, r.stdout)
			}
			text := log.text()
			if !strings.Contains(text, "settings file refused: settings file is "+tc.why) && !strings.Contains(text, "settings file refused: "+tc.why) {
				t.Fatalf("OS log does not say why: %q", text)
			}
			if strings.Contains(text, testenv.Canary) {
				t.Fatal("canary in the OS log")
			}
		})
	}
}

// A settings file of as many bad lines as the cap holds is read in
// bounded memory, still gives its token, and makes a bounded number of
// warnings, not one for each line.
func TestWorstSettingsFileStaysBounded(t *testing.T) {
	testenv.RequireRoot(t, "the settings file counts only when root owns it")
	work := newWork(t)
	path := filepath.Join(work, "ctrld-install.conf")
	os.WriteFile(path, []byte(strings.Repeat("x\n", (settings.MaxFileSize-64)/2)+"ProvisionToken="+testenv.Canary+"\n"), 0o600)
	log, err := listenSyslog()
	if err != nil {
		t.Fatal(err)
	}
	defer log.close()
	r := startWrapper(t, work, log.path, "--settings", path)
	warnings := strings.Count(log.text(), "settings file: ")
	t.Logf("exit %d, peak RSS %d MiB, %d warnings, %v", r.exit, r.rssMiB, warnings, r.took)
	if r.exit != 0 || r.rssMiB > maxRSSMiB || warnings > 20 {
		t.Fatalf("exit %d, peak RSS %d MiB, %d warnings", r.exit, r.rssMiB, warnings)
	}
	if found := testenv.FilesWithCanary(work, path); len(found) > 0 || strings.Contains(log.text(), testenv.Canary) {
		t.Fatalf("canary leaked: %v", found)
	}
}
