package cfb

// balance links entries[lo:hi], already sorted by compareNames, into a
// balanced binary search tree through their sibling ids and returns the
// id of its top (ids are indexes into entries). All nodes are black,
// which satisfies every rule of [MS-CFB] 2.6.4.
func balance(entries []dirEntry, lo, hi int) uint32 {
	if lo >= hi {
		return noStream
	}
	mid := lo + (hi-lo)/2
	entries[mid].left = balance(entries, lo, mid)
	entries[mid].right = balance(entries, mid+1, hi)
	return uint32(mid)
}

// walkSiblings lists the ids of the tree that starts at top, in order,
// and reports a corrupt tree: an id out of range, or an entry reached
// twice (a loop, or two parents). It uses its own stack, so a deep tree
// cannot exhaust the goroutine stack.
func walkSiblings(entries []dirEntry, top uint32, seen []bool) ([]uint32, error) {
	var ids, stack []uint32
	push := func(id uint32) error {
		for id != noStream {
			if int64(id) >= int64(len(entries)) {
				return corrupt("sibling id %d out of range", id)
			}
			if seen[id] {
				return corrupt("directory entry %d reached twice", id)
			}
			seen[id] = true
			stack = append(stack, id)
			id = entries[id].left
		}
		return nil
	}
	if err := push(top); err != nil {
		return nil, err
	}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ids = append(ids, id)
		if err := push(entries[id].right); err != nil {
			return nil, err
		}
	}
	return ids, nil
}
