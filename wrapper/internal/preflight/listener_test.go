package preflight

import (
	"context"
	"net"
	"os"
	"strings"
	"testing"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

func holdLoopback(t *testing.T) string {
	t.Helper()
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	udp, err := net.ListenPacket("udp", tcp.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tcp.Close(); udp.Close() })
	return tcp.Addr().String()
}

func TestListenerHeldNamesTheHolder(t *testing.T) {
	held := holdLoopback(t)
	self := Holder{PID: os.Getpid(), Name: "me"}
	finder := func(_ context.Context, proto string, port int) ([]Holder, error) {
		return []Holder{self}, nil
	}
	for _, c := range listenerChecks(context.Background(), []string{held}, finder) {
		if c.Code != codes.ListenerBindFailed || !strings.HasPrefix(c.Detail, "address already in use; held by "+self.String()) {
			t.Errorf("%+v", c)
		}
	}
}

func TestListenerFallsBack(t *testing.T) {
	held := holdLoopback(t)
	checks := listenerChecks(context.Background(), []string{held, "127.0.0.1:0"}, nil)
	r := Result{Checks: checks}
	if !r.Outcome().OK {
		t.Fatalf("a free address after a held one: %v", r.Outcome())
	}
	if c := checks[0]; c.OK || !strings.HasSuffix(c.Detail, "; ctrld falls back to 127.0.0.1:0") {
		t.Errorf("%+v", c)
	}
}
