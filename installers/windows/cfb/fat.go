package cfb

// run is a range of contiguous sectors and what the FAT says about them:
// a chain (each sector points at the next, the last ends the chain), FAT
// sectors or DIFAT sectors.
type run struct {
	start, count uint32
	mark         uint32 // 0 for a chain, else fatSect or difSect
}

func (r run) entry(sector uint32) uint32 {
	switch {
	case r.mark != 0:
		return r.mark
	case sector == r.start+r.count-1:
		return endOfChain
	}
	return sector + 1
}

// fatEntries yields the FAT, entry by entry, for runs sorted by start;
// sectors no run covers are free. It holds nothing but the runs, so the
// FAT of a large file is never built in memory.
func fatEntries(runs []run, total uint32, emit func(uint32) error) error {
	next := 0
	for s := uint32(0); s < total; s++ {
		for next < len(runs) && s >= runs[next].start+runs[next].count {
			next++
		}
		v := uint32(freeSect)
		if next < len(runs) && s >= runs[next].start {
			v = runs[next].entry(s)
		}
		if err := emit(v); err != nil {
			return err
		}
	}
	return nil
}

// fatSize finds the smallest FAT that maps every data sector, itself and
// the DIFAT sectors it needs beyond the header's 109 slots.
func fatSize(data uint32) (fat, difat uint32) {
	for fat = 1; ; fat++ {
		difat = difatSectorsFor(fat)
		if uint64(fat)*entriesPerFAT >= uint64(data)+uint64(fat)+uint64(difat) {
			return fat, difat
		}
	}
}

func difatSectorsFor(fat uint32) uint32 {
	if fat <= headerDIFAT {
		return 0
	}
	return ceilDiv(fat-headerDIFAT, entriesPerDIFAT)
}

func ceilDiv(a, b uint32) uint32 { return (a + b - 1) / b }

func ceilDiv64(a, b int64) int64 { return (a + b - 1) / b }
