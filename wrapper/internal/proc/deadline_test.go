package proc

import (
	"context"
	"testing"
	"time"
)

func TestWithinDeadlineLeavesTheGraceBeforeTheDeadline(t *testing.T) {
	parent, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	want, _ := parent.Deadline()
	for name, tc := range map[string]struct{ grace, wantGrace time.Duration }{
		"a grace that fits":   {3 * time.Second, 3 * time.Second},
		"a grace beyond half": {8 * time.Second, 5 * time.Second},
	} {
		ctx, grace, cancel := WithinDeadline(parent, tc.grace)
		end, _ := ctx.Deadline()
		cancel()
		if d := tc.wantGrace - grace; d < 0 || d > 100*time.Millisecond {
			t.Errorf("%s: grace %s, want %s", name, grace, tc.wantGrace)
		}
		if got := end.Add(grace); got.After(want) {
			t.Errorf("%s: the run and its grace end %s after the deadline", name, got.Sub(want))
		}
	}
	ctx, grace, cancel := WithinDeadline(context.Background(), 3*time.Second)
	defer cancel()
	if _, ok := ctx.Deadline(); ok || grace != 3*time.Second {
		t.Errorf("no deadline: got one, grace %s", grace)
	}
}
