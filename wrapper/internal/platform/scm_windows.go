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

func (c scm) Config(name string) (SCMService, error) {
	m, s, err := c.open(name)
	if err != nil {
		return SCMService{}, err
	}
	defer m.Disconnect()
	defer s.Close()
	cfg, err := s.Config()
	if err != nil {
		return SCMService{}, err
	}
	return SCMService{
		ImagePath: cfg.BinaryPathName, DisplayName: cfg.DisplayName, Description: cfg.Description,
		StartType: cfg.StartType, DelayedAutoStart: cfg.DelayedAutoStart,
	}, nil
}

// scmPoll is how often Delete asks the SCM whether the service stopped
// and went.
const scmPoll = 300 * time.Millisecond

// Delete stops the service, marks it for deletion, and waits until the
// SCM no longer opens it.
func (c scm) Delete(ctx context.Context, name string) error {
	m, s, err := c.open(name)
	if err != nil {
		return err
	}
	if st, err := s.Query(); err == nil && st.State != svc.Stopped {
		s.Control(svc.Stop)
		for st.State != svc.Stopped {
			if err := sleepCtx(ctx, scmPoll); err != nil {
				break
			}
			if st, err = s.Query(); err != nil {
				break
			}
		}
	}
	err = s.Delete()
	s.Close()
	m.Disconnect()
	if err != nil {
		return err
	}
	for c.Exists(name) {
		if err := sleepCtx(ctx, scmPoll); err != nil {
			return err
		}
	}
	return nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// Create makes the service again with its saved command line, which
// CreateService would quote as one path: it is set afterwards.
func (scm) Create(name string, saved SCMService) error {
	m, err := mgr.Connect()
	if err != nil {
		return err
	}
	defer m.Disconnect()
	s, err := m.CreateService(name, firstWord(saved.ImagePath), mgr.Config{
		DisplayName: saved.DisplayName, Description: saved.Description,
		StartType: saved.StartType, DelayedAutoStart: saved.DelayedAutoStart,
	})
	if err != nil {
		return err
	}
	defer s.Close()
	cfg, err := s.Config()
	if err != nil {
		return err
	}
	cfg.BinaryPathName = saved.ImagePath
	return s.UpdateConfig(cfg)
}

func (c scm) Start(name string) error {
	m, s, err := c.open(name)
	if err != nil {
		return err
	}
	defer m.Disconnect()
	defer s.Close()
	return s.Start()
}
