package platform

import (
	"context"
	"time"

	"golang.org/x/sys/windows/svc"
	"golang.org/x/sys/windows/svc/mgr"
)

// scm talks to the Service Control Manager.
type scm struct{}

func (scm) open(name string) (*mgr.Mgr, *mgr.Service, error) {
	m, err := mgr.Connect()
	if err != nil {
		return nil, nil, err
	}
	s, err := m.OpenService(name)
	if err != nil {
		m.Disconnect()
		return nil, nil, err
	}
	return m, s, nil
}

func (c scm) Exists(name string) bool {
	m, s, err := c.open(name)
	if err != nil {
		return false
	}
	s.Close()
	m.Disconnect()
	return true
}

func (c scm) Running(name string) bool {
	m, s, err := c.open(name)
	if err != nil {
		return false
	}
	defer m.Disconnect()
	defer s.Close()
	st, err := s.Query()
	return err == nil && st.State == svc.Running
}

// Restart stops the service, waits for it to stop, and starts it again.
func (c scm) Restart(ctx context.Context, name string) error {
	m, s, err := c.open(name)
	if err != nil {
		return err
	}
	defer m.Disconnect()
	defer s.Close()
	if st, err := s.Query(); err == nil && st.State != svc.Stopped {
		if _, err := s.Control(svc.Stop); err != nil {
			return err
		}
		for {
			st, err := s.Query()
			if err != nil {
				return err
			}
			if st.State == svc.Stopped {
				break
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(300 * time.Millisecond):
			}
		}
	}
	return s.Start()
}
