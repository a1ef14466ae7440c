package preflight

import (
	"context"
	"slices"
	"strconv"
)

// Holder is a process holding a port.
type Holder struct {
	PID  int
	Name string
}

func (h Holder) String() string {
	name := h.Name
	if name == "" {
		name = "a process"
	}
	return name + " (pid " + strconv.Itoa(h.PID) + ")"
}

// HolderFinder lists the processes with a socket of proto (UDP or TCP;
// for TCP, listening) bound to port on any address.
type HolderFinder func(ctx context.Context, proto string, port int) ([]Holder, error)

// maxHolders bounds the holders named for one port.
const maxHolders = 8

// addHolder appends h unless it is there already or the list is full.
func addHolder(list []Holder, h Holder) []Holder {
	if len(list) >= maxHolders || slices.Contains(list, h) {
		return list
	}
	return append(list, h)
}
