package main

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/names"
	"golang.org/x/sys/windows/svc"
	"golang.org/x/sys/windows/svc/mgr"
)

// On Windows the fake installs and starts a real service, as ctrld does,
// so that the wrapper's success gate can ask the Service Control Manager.
// The service is this binary run with "run".

func serviceName() string {
	self, _ := os.Executable()
	return strings.TrimSuffix(filepath.Base(self), filepath.Ext(self))
}

// displayName is the display name of the line the fake plays, as the
// real ctrld registers it.
func displayName() string { return names.LineOf(serviceName()).DisplayName }

func installService() {
	self, _ := os.Executable()
	m, err := mgr.Connect()
	if err != nil {
		return
	}
	defer m.Disconnect()
	s, err := m.OpenService(serviceName())
	if err != nil {
		s, err = m.CreateService(serviceName(), self, mgr.Config{DisplayName: displayName(), StartType: mgr.StartAutomatic}, "run")
		if err != nil {
			return
		}
	}
	defer s.Close()
	s.Start()
	for range 50 {
		if st, err := s.Query(); err == nil && st.State == svc.Running {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func serviceStatus() (int, bool) {
	m, err := mgr.Connect()
	if err != nil {
		return 0, false
	}
	defer m.Disconnect()
	s, err := m.OpenService(serviceName())
	if err != nil {
		return 1, true
	}
	defer s.Close()
	if st, err := s.Query(); err == nil && st.State == svc.Running {
		return 0, true
	}
	return 1, true
}

func uninstallService() {
	m, err := mgr.Connect()
	if err != nil {
		return
	}
	defer m.Disconnect()
	s, err := m.OpenService(serviceName())
	if err != nil {
		return
	}
	defer s.Close()
	s.Control(svc.Stop)
	for range 50 {
		if st, err := s.Query(); err != nil || st.State == svc.Stopped {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.Delete()
}

type handler struct{}

func (handler) Execute(_ []string, req <-chan svc.ChangeRequest, status chan<- svc.Status) (bool, uint32) {
	status <- svc.Status{State: svc.Running, Accepts: svc.AcceptStop | svc.AcceptShutdown}
	for r := range req {
		switch r.Cmd {
		case svc.Interrogate:
			status <- r.CurrentStatus
		case svc.Stop, svc.Shutdown:
			status <- svc.Status{State: svc.StopPending}
			return false, 0
		}
	}
	return false, 0
}

func runService() { svc.Run(serviceName(), handler{}) }
