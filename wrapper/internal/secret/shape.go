package secret

import "strings"

// Removed is what RemoveTokenShaped puts in place of a word that looks
// like a token.
const Removed = "[removed]"

// A run of word characters at least this long, holding both a letter and
// a digit, looks like a token (ctrld's tokens, resolver IDs, UUIDs, JWTs).
// Any run at least longTokenLen long looks like one whatever it holds.
const (
	tokenLikeLen = 12
	longTokenLen = 40
)

// RemoveTokenShaped replaces each word of s that looks like a token with
// Removed: for a value that may hold a token no source named, such as a
// path typed where a token belonged.
func RemoveTokenShaped(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if !IsWordChar(s[i]) {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && IsWordChar(s[j]) {
			j++
		}
		if TokenShaped(s[i:j]) {
			b.WriteString(Removed)
		} else {
			b.WriteString(s[i:j])
		}
		i = j
	}
	return b.String()
}

// IsWordChar reports whether c is one of the characters ctrld's tokens,
// resolver IDs, UUIDs and JWTs are made of. ':', '/', '=' and '&' are
// not, so addresses, paths and URLs fall apart into short, harmless
// words.
func IsWordChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '-' || c == '_' || c == '.'
}

// TokenShaped reports whether a word (a run of word characters) looks
// like a token.
func TokenShaped(w string) bool {
	if len(w) >= longTokenLen {
		return true
	}
	if len(w) < tokenLikeLen {
		return false
	}
	return strings.ContainsAny(w, "0123456789") && strings.IndexFunc(w, isLetter) >= 0
}

func isLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }
