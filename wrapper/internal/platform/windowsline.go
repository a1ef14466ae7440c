package platform

import (
	"context"
	"fmt"
)

// SCMService is what the SCM knows of a service that creating it again
// needs.
type SCMService struct {
	// ImagePath is the command the SCM runs: the binary, quoted, and its
	// arguments.
	ImagePath, DisplayName, Description string
	StartType                           uint32
	DelayedAutoStart                    bool
}

// ServiceRemover is the SCM's part in a move between ctrld lines.
type ServiceRemover interface {
	Config(name string) (SCMService, error)
	// Delete stops the service, deletes it, and returns once the SCM no
	// longer has it, within ctx.
	Delete(ctx context.Context, name string) error
	Create(name string, s SCMService) error
	Start(name string) error
}

// OtherLine finds line's SCM entry; the binary and the resolver uid are
// read from its ImagePath. An SCM that cannot remove services finds none.
func (w Windows) OtherLine(svc Service, line string) (Other, bool) {
	rm, ok := w.SCM.(ServiceRemover)
	if !ok || line == svc.Name || !w.SCM.Exists(line) {
		return Other{}, false
	}
	o := Other{Service: Service{Name: line, Env: svc.Env}, Binary: besideOurs(svc, w.ProgramFile(line))}
	if c, err := rm.Config(line); err == nil {
		o.Ctrld, o.UID = firstWord(c.ImagePath), uidIn(c.ImagePath)
	}
	o.Ctrld = orElse(o.Ctrld, o.Binary)
	return o, true
}

// RemoveOther saves the SCM entry, then stops and deletes it: the service
// is gone before this line's starts.
func (w Windows) RemoveOther(ctx context.Context, o *Other) error {
	rm, ok := w.SCM.(ServiceRemover)
	if !ok {
		return ErrOtherLeft
	}
	c, err := rm.Config(o.Name)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrOtherLeft, err)
	}
	o.scm = c
	if err := rm.Delete(ctx, o.Name); err != nil || w.SCM.Exists(o.Name) {
		return fmt.Errorf("%w: %s: %v", ErrOtherLeft, o.Name, err)
	}
	return nil
}

// RestoreOther creates the saved SCM entry again and starts it.
func (w Windows) RestoreOther(_ context.Context, o Other) error {
	rm, ok := w.SCM.(ServiceRemover)
	if !ok || o.scm.ImagePath == "" {
		return ErrOtherLeft
	}
	if err := rm.Create(o.Name, o.scm); err != nil {
		return err
	}
	return rm.Start(o.Name)
}
