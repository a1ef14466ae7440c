package preflight

import (
	"encoding/binary"
	"reflect"
	"testing"
)

// table builds an owner-PID table of rows set by fill.
func table(l rowLayout, rows ...func(row []byte)) []byte {
	b := make([]byte, 4+len(rows)*l.size)
	binary.LittleEndian.PutUint32(b, uint32(len(rows)))
	for i, fill := range rows {
		fill(b[4+i*l.size : 4+(i+1)*l.size])
	}
	return b
}

func row(l rowLayout, port, pid, state int) func([]byte) {
	return func(r []byte) {
		r[l.port], r[l.port+1] = byte(port>>8), byte(port)
		binary.LittleEndian.PutUint32(r[l.pid:], uint32(pid))
		if l.state >= 0 {
			binary.LittleEndian.PutUint32(r[l.state:], uint32(state))
		}
	}
}

func TestOwnersOfPort(t *testing.T) {
	const established = 5
	for name, tc := range map[string]struct {
		l    rowLayout
		want []int
	}{
		"tcp4": {tcp4Rows, []int{40}},
		"tcp6": {tcp6Rows, []int{40}},
		"udp4": {udp4Rows, []int{40, 41}},
		"udp6": {udp6Rows, []int{40, 41}},
	} {
		b := table(tc.l, row(tc.l, 53, 40, mibTCPListen), row(tc.l, 53, 41, established), row(tc.l, 5353, 42, mibTCPListen))
		if got := ownersOfPort(b, tc.l, 53); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", name, got, tc.want)
		}
	}
}

func TestOwnersOfPortShortTable(t *testing.T) {
	b := table(tcp4Rows, row(tcp4Rows, 53, 40, mibTCPListen))
	binary.LittleEndian.PutUint32(b, 1<<30) // claims far more rows than it has
	if got := ownersOfPort(b, tcp4Rows, 53); !reflect.DeepEqual(got, []int{40}) {
		t.Errorf("%v", got)
	}
	if got := ownersOfPort([]byte{1}, tcp4Rows, 53); got != nil {
		t.Errorf("%v", got)
	}
}
