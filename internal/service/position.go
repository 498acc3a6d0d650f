package service

import (
	"context"

	"quire/internal/quire"
)

// Anchor names a sibling a moved item goes before or after.
type Anchor struct {
	Kind quire.SiblingKind
	ID   string
}

// Position is where to put an item among its siblings: before one, after
// one, or both (between two).
type Position struct {
	Before *Anchor
	After  *Anchor
}

// NewAnchor builds an anchor.
func NewAnchor(kind quire.SiblingKind, id string) *Anchor { return &Anchor{Kind: kind, ID: id} }

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
	return quire.KeyBetween(lo, hi), true, nil
}

// lastKey returns a key after every space and collection directly under
// parent ("" for the root) in an organization. It reads the last position
// from the store's index, never the siblings themselves, so placing an
// item last costs the same however many siblings it has.
func lastKey(ctx context.Context, st quire.Store, orgID, parent string) (string, error) {
	last, err := st.LastPosition(ctx, orgID, parent)
	if err != nil {
		return "", err
	}
	return quire.KeyBetween(last, ""), nil
}
