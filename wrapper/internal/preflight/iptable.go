package preflight

import "encoding/binary"

// rowLayout is one row kind of the Windows IP helper's owner-PID tables
// (MIB_TCPROW_OWNER_PID and its kin): the row size and where the local
// port, the owner pid and, for TCP, the state sit. Every field is a
// little-endian DWORD but the port, which holds network byte order in
// its low 16 bits.
type rowLayout struct {
	size, port, pid, state int
}

// The layouts of the four tables; state -1 where the row has none.
var (
	tcp4Rows = rowLayout{size: 24, port: 8, pid: 20, state: 0}
	tcp6Rows = rowLayout{size: 56, port: 20, pid: 52, state: 48}
	udp4Rows = rowLayout{size: 12, port: 4, pid: 8, state: -1}
	udp6Rows = rowLayout{size: 28, port: 20, pid: 24, state: -1}
)

// mibTCPListen is MIB_TCP_STATE_LISTEN.
const mibTCPListen = 2

// ownersOfPort reads a table (a DWORD row count, then the rows) and
// returns the pids of the rows bound to port; for TCP only listening
// rows count. A table shorter than it says is read as far as it goes.
func ownersOfPort(table []byte, l rowLayout, port int) []int {
	if len(table) < 4 {
		return nil
	}
	n := int(binary.LittleEndian.Uint32(table))
	var pids []int
	for i := 0; i < n; i++ {
		off := 4 + i*l.size
		if off+l.size > len(table) || off < 0 {
			break
		}
		row := table[off : off+l.size]
		if l.state >= 0 && binary.LittleEndian.Uint32(row[l.state:]) != mibTCPListen {
			continue
		}
		if int(row[l.port])<<8|int(row[l.port+1]) != port {
			continue
		}
		pids = append(pids, int(binary.LittleEndian.Uint32(row[l.pid:])))
	}
	return pids
}
