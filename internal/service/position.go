package service

import (
	"strings"

	"quire/internal/quire"
)

// positionDigits are the digits of position keys. Keys compare as plain
// strings and never end in the lowest digit, so there is always room
// between two of them.
const positionDigits = "0123456789abcdefghijklmnopqrstuvwxyz"

// keyBetween returns a key that sorts strictly between a and b. An empty a
// means "before everything", an empty b "after everything". It requires
// a < b when both are set.
func keyBetween(a, b string) string {
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
			return b[:n] + keyBetween(rest, b[n:])
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
	return string(positionDigits[da]) + keyBetween(rest, "")
}

// digitAt returns the digit of a at i, padding with the lowest digit.
func digitAt(a string, i int) byte {
	if i < len(a) {
		return a[i]
	}
	return positionDigits[0]
}

// Anchor names a sibling a moved item goes before or after.
type Anchor struct {
	Kind string // "space" or "collection"
	ID   string
}

// Position is where to put an item among its siblings: before one, after
// one, or both (between two).
type Position struct {
	Before *Anchor
	After  *Anchor
}

// NewAnchor builds an anchor.
func NewAnchor(kind, id string) *Anchor { return &Anchor{Kind: kind, ID: id} }

// placement computes the position key for an item moving among siblings
// (which may contain the item itself). It reports whether the key differs
// from the item's current place, so that a move that would change nothing
// can be refused.
func placement(siblings []quire.Sibling, self quire.Sibling, pos Position) (key string, changed bool, err error) {
	others := make([]quire.Sibling, 0, len(siblings))
	current := -1
	for _, sb := range siblings {
		if sb.Kind == self.Kind && sb.ID == self.ID {
			current = len(others)
			continue
		}
		others = append(others, sb)
	}
	find := func(field string, a *Anchor) (int, error) {
		for i, sb := range others {
			if sb.Kind == a.Kind && sb.ID == a.ID {
				return i, nil
			}
		}
		return 0, quire.Invalid("position."+field, "invalid position: %s %s is not a sibling at the destination", a.Kind, a.ID)
	}
	// slot is the index in others the item goes in front of.
	slot := len(others)
	switch {
	case pos.Before != nil && pos.After != nil:
		b, err := find("before", pos.Before)
		if err != nil {
			return "", false, err
		}
		a, err := find("after", pos.After)
		if err != nil {
			return "", false, err
		}
		if a+1 != b {
			return "", false, quire.Invalid("position", "invalid position: the after and before anchors are not adjacent")
		}
		slot = b
	case pos.Before != nil:
		b, err := find("before", pos.Before)
		if err != nil {
			return "", false, err
		}
		slot = b
	case pos.After != nil:
		a, err := find("after", pos.After)
		if err != nil {
			return "", false, err
		}
		slot = a + 1
	}
	if current == slot {
		return self.Position, false, nil
	}
	lo, hi := "", ""
	if slot > 0 {
		lo = others[slot-1].Position
	}
	if slot < len(others) {
		hi = others[slot].Position
	}
	if lo >= hi && hi != "" {
		// Equal keys (ties broken by id) leave no room: append past lo.
		hi = ""
	}
	return keyBetween(lo, hi), true, nil
}

// lastKey returns a key after every sibling.
func lastKey(siblings []quire.Sibling) string {
	max := ""
	for _, sb := range siblings {
		if sb.Position > max {
			max = sb.Position
		}
	}
	return keyBetween(max, "")
}
