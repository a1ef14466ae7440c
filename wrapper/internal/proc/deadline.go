package proc

import (
	"context"
	"time"
)

// WithinDeadline fits a run and its kill grace inside ctx's deadline. The
// context it returns ends one grace before that deadline, so a run cut
// short then and hard-killed after the grace it returns still ends by
// the deadline. The grace is at most half of the time left: the run keeps
// the other half. Without a deadline, ctx and grace stay as they are.
func WithinDeadline(ctx context.Context, grace time.Duration) (context.Context, time.Duration, context.CancelFunc) {
	deadline, ok := ctx.Deadline()
	if !ok {
		ctx, cancel := context.WithCancel(ctx)
		return ctx, grace, cancel
	}
	grace = min(grace, max(time.Until(deadline)/2, 0))
	ctx, cancel := context.WithDeadline(ctx, deadline.Add(-grace))
	return ctx, grace, cancel
}
