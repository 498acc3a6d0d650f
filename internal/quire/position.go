package quire

import "strings"

// positionDigits are the digits of position keys. Keys compare as plain
// strings and never end in the lowest digit, so there is always room
// between two of them.
const positionDigits = "0123456789abcdefghijklmnopqrstuvwxyz"

// KeyBetween returns a key that sorts strictly between a and b. An empty a
// means "before everything", an empty b "after everything". It requires
// a < b when both are set. A key after a set a comes from keyAfter, so
// that appending item after item keeps keys short.
func KeyBetween(a, b string) string {
	if b == "" && a != "" {
		return keyAfter(a)
	}
	return between(a, b)
}

// keyAfter returns a key after a, which is not empty: a plus one, read as
// a number of len(a) digits, skipping values that end in the lowest digit.
// When a is all highest digits, the key is a followed by len(a)-1 lowest
// digits and a 1, so each such overflow doubles the length and the room
// it leaves: n appends in a row end in keys of about 2·log36(n)
// characters, where taking the midpoint to the end each time grew them by
// one character every few appends.
func keyAfter(a string) string {
	top, low := positionDigits[len(positionDigits)-1], positionDigits[0]
	d := []byte(a)
	for {
		i := len(d) - 1
		for i >= 0 && d[i] == top {
			d[i] = low
			i--
		}
		if i < 0 {
			return a + strings.Repeat(string(low), len(a)-1) + string(positionDigits[1])
		}
		at := strings.IndexByte(positionDigits, d[i])
		if at < 0 {
			return between(a, "") // not a key this package made
		}
		d[i] = positionDigits[at+1]
		if d[len(d)-1] != low {
			return string(d)
		}
	}
}

// between is KeyBetween by midpoints, for any a and b.
func between(a, b string) string {
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
			return b[:n] + between(rest, b[n:])
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
	return string(positionDigits[da]) + between(rest, "")
}

// digitAt returns the digit of a at i, padding with the lowest digit.
func digitAt(a string, i int) byte {
	if i < len(a) {
		return a[i]
	}
	return positionDigits[0]
}
