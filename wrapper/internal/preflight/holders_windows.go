package preflight

import (
	"context"
	"errors"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/windows"
)

var (
	iphlpapi            = windows.NewLazySystemDLL("iphlpapi.dll")
	getExtendedTCPTable = iphlpapi.NewProc("GetExtendedTcpTable")
	getExtendedUDPTable = iphlpapi.NewProc("GetExtendedUdpTable")
)

// The IP helper's table classes and address families.
const (
	tcpTableOwnerPIDListener = 3
	udpTableOwnerPID         = 1
	afInet                   = 2
	afInet6                  = 23
)

// maxTable bounds one IP helper table.
const maxTable = 16 << 20

// DefaultHolders reads the IP helper's TCP and UDP tables, IPv4 and IPv6.
func DefaultHolders() HolderFinder { return windowsHolders }

func windowsHolders(ctx context.Context, proto string, port int) ([]Holder, error) {
	proc, class, layouts := getExtendedUDPTable, uintptr(udpTableOwnerPID), [2]rowLayout{udp4Rows, udp6Rows}
	if proto == TCP {
		proc, class, layouts = getExtendedTCPTable, tcpTableOwnerPIDListener, [2]rowLayout{tcp4Rows, tcp6Rows}
	}
	var found []Holder
	for i, af := range []uintptr{afInet, afInet6} {
		table, err := readTable(proc, af, class)
		if err != nil {
			continue
		}
		for _, pid := range ownersOfPort(table, layouts[i], port) {
			found = addHolder(found, Holder{PID: pid, Name: imageName(pid)})
		}
	}
	return found, ctx.Err()
}

// readTable calls GetExtended{Tcp,Udp}Table, growing the buffer as it
// asks.
func readTable(proc *windows.LazyProc, af, class uintptr) ([]byte, error) {
	size := uint32(0)
	buf := []byte{0}
	for tries := 0; tries < 4; tries++ {
		r, _, _ := proc.Call(uintptr(unsafe.Pointer(&buf[0])), uintptr(unsafe.Pointer(&size)), 0, af, class, 0)
		switch windows.Errno(r) {
		case 0:
			return buf[:min(int(size), len(buf))], nil
		case windows.ERROR_INSUFFICIENT_BUFFER:
			if size > maxTable {
				return nil, errors.New("IP helper table too large")
			}
			buf = make([]byte, size)
			continue
		default:
			return nil, windows.Errno(r)
		}
	}
	return nil, errors.New("IP helper table kept growing")
}

// imageName is the base name of the process's executable, "" when the
// process cannot be opened.
func imageName(pid int) string {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return ""
	}
	defer windows.CloseHandle(h)
	buf := make([]uint16, windows.MAX_PATH)
	n := uint32(len(buf))
	if err := windows.QueryFullProcessImageName(h, 0, &buf[0], &n); err != nil {
		return ""
	}
	return printable(filepath.Base(windows.UTF16ToString(buf[:n])))
}
