package cfb

import "errors"

// layout places every part of the file in sectors, in the order of
// section 1.7 of the project's MSI spec: regular streams, the mini
// stream, the mini FAT, the directory, the FAT, the DIFAT.
type layout struct {
	regular     []run // one per regular stream, in directory order
	miniStream  run
	miniFAT     run
	directory   run
	fat         run
	difat       run
	total       uint32
	miniSectors uint32
}

var errTooLarge = errors.New("cfb: file too large for a version 3 compound file")

// planLayout assigns sectors to the streams (sorted, in directory order)
// and to the mini stream (miniBytes long, already padded to mini sectors).
func planLayout(sizes []int64, miniBytes int64) (*layout, error) {
	l := &layout{}
	var next int64
	place := func(count int64) run {
		r := run{start: uint32(next), count: uint32(count)}
		next += count
		return r
	}
	for _, size := range sizes {
		if size >= miniCutoff {
			l.regular = append(l.regular, place(ceilDiv64(size, sectorSize)))
		}
	}
	l.miniSectors = uint32(miniBytes / miniSectorSize)
	l.miniStream = place(ceilDiv64(miniBytes, sectorSize))
	l.miniFAT = place(ceilDiv64(int64(l.miniSectors), entriesPerFAT))
	l.directory = place(ceilDiv64(int64(len(sizes))+1, entriesPerDir))
	// The FAT adds under 1% to the data; leave it room below MAXREGSECT.
	if next > maxRegSect/2 {
		return nil, errTooLarge
	}
	fat, difat := fatSize(uint32(next))
	l.fat = place(int64(fat))
	l.fat.mark = fatSect
	l.difat = place(int64(difat))
	l.difat.mark = difSect
	l.total = uint32(next)
	return l, nil
}

// runs lists every allocated range, sorted by start sector.
func (l *layout) runs() []run {
	all := append([]run(nil), l.regular...)
	for _, r := range []run{l.miniStream, l.miniFAT, l.directory, l.fat, l.difat} {
		if r.count > 0 {
			all = append(all, r)
		}
	}
	return all
}

// first is a chain's start sector in the header or directory.
func (r run) first() uint32 {
	if r.count == 0 {
		return endOfChain
	}
	return r.start
}
