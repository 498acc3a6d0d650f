package quire

import "strings"

// positionDigits are the digits of position keys. Keys compare as plain
// strings and never end in the lowest digit, so there is always room
// between two of them.
const positionDigits = "0123456789abcdefghijklmnopqrstuvwxyz"

// KeyBetween returns a key that sorts strictly between a and b. An empty a
// means "before everything", an empty b "after everything". It requires
// a < b when both are set.
func KeyBetween(a, b string) string {
	if b != "" {
		n := 0
		for n < len(b) && digitAt(a, n) == b[n] {
			n++
		}
		if n > 0 {
			rest := ""
			if n < len(a) {
				rest = a[n:]
			}
			return b[:n] + KeyBetween(rest, b[n:])
		}
	}
	da := 0
	if a != "" {
		da = strings.IndexByte(positionDigits, a[0])
	}
	db := len(positionDigits)
	if b != "" {
		db = strings.IndexByte(positionDigits, b[0])
	}
	if db-da > 1 {
		return string(positionDigits[(da+db)/2])
	}
	if b != "" && len(b) > 1 {
		return b[:1]
	}
	rest := ""
	if len(a) > 1 {
		rest = a[1:]
	}
	return string(positionDigits[da]) + KeyBetween(rest, "")
}

// digitAt returns the digit of a at i, padding with the lowest digit.
func digitAt(a string, i int) byte {
	if i < len(a) {
		return a[i]
	}
	return positionDigits[0]
}
