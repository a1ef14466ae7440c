package realctrld_test

import (
	"os"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/realctrld"
	"github.com/ctrld-install/ctrld-install/internal/testenv"
)

var scenarios = map[string]realctrld.Scenario{
	"explore": func(b *realctrld.Box) {
		if _, err := os.Stat(realctrld.Share + "/api"); err == nil {
			b.StartAPI(testenv.Canary, realctrld.Accept)
		}
		b.Run("explore", 4*time.Minute, nil, "/bin/sh", realctrld.Share+"/explore.sh")
	},
}

func TestExplore(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	s := newSandbox(t, "explore")
	os.WriteFile(s.ShareDir()+"/explore.sh", []byte(os.Getenv("EXPLORE")), 0o755)
	if os.Getenv("EXPLORE_API") != "" {
		os.WriteFile(s.ShareDir()+"/api", nil, 0o644)
	}
	r := s.Run(t, 5*time.Minute)
	for _, st := range r.Steps {
		t.Logf("%s exit=%d %s\n%s\n%s", st.Name, st.Exit, st.Duration, realctrld.Redact(st.Stdout), realctrld.Redact(st.Stderr))
	}
	t.Logf("procs %v", r.Processes)
	t.Logf("syslog %q", r.Syslog)
}
