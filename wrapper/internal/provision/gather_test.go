//go:build unix

package provision

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/ctrld-install/ctrld-install/internal/codes"
	"github.com/ctrld-install/ctrld-install/internal/settings"
	"github.com/ctrld-install/ctrld-install/internal/testing/testenv"
	"github.com/ctrld-install/ctrld-install/wrapper/internal/platform"
)

// stalledPolicy is an OS whose policy read says it began and then waits
// until the test ends.
type stalledPolicy struct {
	platform.Linux
	began chan<- struct{}
	end   <-chan struct{}
}

func (s stalledPolicy) Policy() settings.Settings {
	s.began <- struct{}{}
	<-s.end
	return nil
}

// An interrupt during a settings read ends the run at once with
// WRAPPER_INTERRUPTED, on a fresh install and on an upgrade, and ends
// HasWork with the interrupt; ctrld is never run.
func TestInterruptDuringSettingsReadEndsAtOnce(t *testing.T) {
	ctrld, calls := shCtrld(t, 0, 0)
	end := make(chan struct{})
	defer close(end)
	for name, act := range map[string]func(p *Provisioner, ctx context.Context) bool{
		"fresh": func(p *Provisioner, ctx context.Context) bool {
			return p.Run(ctx) == codes.Failure(codes.WrapperInterrupted)
		},
		"upgrade": func(p *Provisioner, ctx context.Context) bool {
			return p.Run(ctx) == codes.Failure(codes.WrapperInterrupted)
		},
		"has-work": func(p *Provisioner, ctx context.Context) bool {
			_, err := p.HasWork(ctx)
			return errors.Is(err, ErrInterrupted)
		},
	} {
		t.Run(name, func(t *testing.T) {
			began := make(chan struct{}, 1)
			var files []string
			if name == "upgrade" {
				files = []string{ctrld}
			}
			p, _ := newProvisioner(t, ctrld, stalledPolicy{began: began, end: end}, files, settings.Settings{settings.ProvisionToken: testenv.Canary})
			ctx, cancel := context.WithCancelCause(context.Background())
			done := make(chan bool, 1)
			go func() { done <- act(p, ctx) }()
			<-began
			cancel(ErrInterrupted)
			select {
			case ok := <-done:
				if !ok {
					t.Fatal("not interrupted")
				}
			case <-time.After(10 * time.Second):
				t.Fatal("still waiting for the read after the interrupt")
			}
		})
	}
	if _, err := os.Stat(calls); !os.IsNotExist(err) {
		t.Fatalf("ctrld ran: %v", err)
	}
}
