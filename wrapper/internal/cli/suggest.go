package cli

import (
	"flag"
	"strings"
)

// suggestion names the nearest of names to what was typed, as
// "; did you mean PREFIX NAME?", or nothing when none is near. It never
// quotes typed, which may be a token given in the wrong place: only a
// name of ours is ever shown.
func suggestion(typed string, names []string, prefix string) string {
	typed = strings.ToLower(strings.TrimLeft(typed, "-"))
	best, bestDist := "", -1
	for _, n := range names {
		d := editDistance(typed, n)
		if d > nearEnough(n) {
			continue
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = n, d
		}
	}
	if best == "" {
		return ""
	}
	if len(best) == 1 {
		prefix = "-"
	}
	return "; did you mean " + prefix + best + "?"
}

// nearEnough is the most edits that still make a typo of name: a third
// of its length, at least one.
func nearEnough(name string) int { return max(1, len(name)/3) }

// flagNames lists the flags of fs.
func flagNames(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
