package service

import (
	"context"
	"slices"
	"strings"

	"quire/internal/quire"
)

// CollectionView is a collection with the caller's level on it.
type CollectionView struct {
	Collection *quire.Collection
	Level      quire.Level
}

// Collection returns a collection.
func (s *Service) Collection(ctx context.Context, id string) (*quire.Collection, error) {
	c, err := s.store.Collection(ctx, id)
	if quire.IsNotFound(err) {
		return nil, quire.NotFound("collection")
	}
	return c, err
}

// Collections lists an organization's collections with the caller's level
// on each.
func (s *Service) Collections(ctx context.Context, u *quire.User, orgID string, nested bool, p quire.Page) (*quire.List[CollectionView], error) {
	l, err := s.store.Collections(ctx, orgID, quire.CollectionFilter{Nested: nested}, p)
	if err != nil {
		return nil, err
	}
	return s.collectionViews(ctx, u, l)
}

// collectionViews resolves the caller's level on each listed collection,
// all in one lookup.
func (s *Service) collectionViews(ctx context.Context, u *quire.User, l *quire.List[*quire.Collection]) (*quire.List[CollectionView], error) {
	ids := make([]string, 0, len(l.Items))
	for _, c := range l.Items {
		ids = append(ids, c.ID)
	}
	facts, err := s.store.CollectionsFacts(ctx, ids, u.ID)
	if err != nil {
		return nil, err
	}
	out := &quire.List[CollectionView]{Next: l.Next, Count: l.Count, Items: make([]CollectionView, 0, len(l.Items))}
	for _, c := range l.Items {
		f, ok := facts[c.ID]
		if !ok {
			// Deleted between the list and the lookup.
			continue
		}
		out.Items = append(out.Items, CollectionView{Collection: c, Level: f.Level()})
	}
	return out, nil
}

// CreateCollection creates a collection at the organization's root or in a
// parent collection, where the caller needs the create role.
func (s *Service) CreateCollection(ctx context.Context, u *quire.User, orgID, title, parent string) (*CollectionView, error) {
	if err := checkTitle("title", title, 0, 50); err != nil {
		return nil, err
	}
	title = strings.TrimSpace(title)
	if title == "" {
		title = "Untitled"
	}
	var out *CollectionView
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		if parent != "" {
			if err := s.requireParent(ctx, st, u, orgID, "parent", parent); err != nil {
				return err
			}
		}
		pos, err := lastKey(ctx, st, orgID, parent)
		if err != nil {
			return err
		}
		now := s.Now()
		c := &quire.Collection{ID: quire.NewID(), OrgID: orgID, Title: title, Parent: parent,
			DefaultLevel: quire.DefaultInherit, Position: pos, CreatedAt: now, UpdatedAt: now}
		if err := st.CreateCollection(ctx, c); err != nil {
			return err
		}
		out, err = s.collectionView(ctx, st, u, c.ID)
		return err
	})
	return out, err
}

// requireParent checks that a collection can hold new or moved content
// for the caller: it exists in the organization and the caller may create
// in it.
func (s *Service) requireParent(ctx context.Context, st quire.Store, u *quire.User, orgID, field, id string) error {
	c, err := st.Collection(ctx, id)
	if quire.IsNotFound(err) || (err == nil && c.OrgID != orgID) {
		return quire.Invalid(field, "collection %q does not exist in this organization", id)
	} else if err != nil {
		return err
	}
	if _, err := s.require(ctx, st, u, ScopeCollection, id, quire.LevelCreate, quire.EFORBIDDEN); err != nil {
		if quire.IsNotFound(err) {
			return quire.Invalid(field, "collection %q does not exist in this organization", id)
		}
		return err
	}
	return nil
}

// collectionView loads a collection with the caller's level.
func (s *Service) collectionView(ctx context.Context, st quire.Store, u *quire.User, id string) (*CollectionView, error) {
	c, err := st.Collection(ctx, id)
	if err != nil {
		return nil, err
	}
	f, err := st.CollectionFacts(ctx, id, u.ID)
	if err != nil {
		return nil, err
	}
	return &CollectionView{Collection: c, Level: f.Level()}, nil
}

// UpdateCollection applies a PATCH.
func (s *Service) UpdateCollection(ctx context.Context, u *quire.User, id string, upd quire.CollectionUpdate) (*CollectionView, error) {
	if upd.Title != nil {
		if err := checkTitle("title", *upd.Title, 1, 50); err != nil {
			return nil, err
		}
		t := strings.TrimSpace(*upd.Title)
		upd.Title = &t
	}
	if upd.Description != nil {
		if err := checkTitle("description", *upd.Description, 0, 100); err != nil {
			return nil, err
		}
	}
	var out *CollectionView
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		if _, err := st.UpdateCollection(ctx, id, upd); err != nil {
			return err
		}
		var err error
		out, err = s.collectionView(ctx, st, u, id)
		return err
	})
	return out, err
}

// DeleteCollection deletes a collection and its sub-collections; the
// spaces inside are deleted too and can be restored for a while.
func (s *Service) DeleteCollection(ctx context.Context, id string) (bool, error) {
	return s.store.DeleteCollection(ctx, id, s.Now())
}

// CollectionSpaces lists the live spaces directly in a collection.
func (s *Service) CollectionSpaces(ctx context.Context, u *quire.User, id string, p quire.Page) (*quire.List[SpaceView], error) {
	c, err := s.Collection(ctx, id)
	if err != nil {
		return nil, err
	}
	l, err := s.store.Spaces(ctx, quire.SpaceFilter{OrgID: c.OrgID, Parent: &id}, p)
	if err != nil {
		return nil, err
	}
	return s.spaceViews(ctx, u, l)
}

// MoveCollection moves a collection under another parent (nil keeps it,
// a pointer to "" is the root) and/or to a position among its new
// siblings. A move that changes nothing is ECONFLICT.
func (s *Service) MoveCollection(ctx context.Context, u *quire.User, id string, parent *string, pos Position) (*CollectionView, error) {
	var out *CollectionView
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		c, err := st.Collection(ctx, id)
		if err != nil {
			return err
		}
		dest := c.Parent
		if parent != nil {
			dest = *parent
		}
		if dest != "" && dest != c.Parent {
			if dest == c.ID {
				return quire.Invalid("parent", "a collection cannot be moved into itself")
			}
			anc, err := st.Ancestors(ctx, dest)
			if err != nil && !quire.IsNotFound(err) {
				return err
			}
			if slices.Contains(anc, c.ID) {
				return quire.Invalid("parent", "a collection cannot be moved into one of its own sub-collections")
			}
			if err := s.requireParent(ctx, st, u, c.OrgID, "parent", dest); err != nil {
				return err
			}
		}
		key, err := s.moveKey(ctx, st, c.OrgID, c.Parent, dest, quire.Sibling{Kind: quire.SiblingCollection, ID: c.ID, Position: c.Position}, pos)
		if err != nil {
			return err
		}
		if _, err := st.PlaceCollection(ctx, c.ID, c.OrgID, dest, key); err != nil {
			return err
		}
		out, err = s.collectionView(ctx, st, u, c.ID)
		return err
	})
	return out, err
}

// moveKey computes the new position of an item moving from parent from to
// parent to; ECONFLICT when nothing would change.
func (s *Service) moveKey(ctx context.Context, st quire.Store, orgID, from, to string, self quire.Sibling, pos Position) (string, error) {
	if pos.Before == nil && pos.After == nil {
		if from == to {
			return "", quire.Errorf(quire.ECONFLICT, "the move would not result in any update")
		}
		return lastKey(ctx, st, orgID, to)
	}
	sib, err := st.Siblings(ctx, orgID, to)
	if err != nil {
		return "", err
	}
	key, changed, err := placement(sib, self, pos)
	if err != nil {
		return "", err
	}
	if !changed && from == to {
		return "", quire.Errorf(quire.ECONFLICT, "the move would not result in any update")
	}
	return key, nil
}

// TransferCollection moves a collection, with everything in it, to the
// root of another organization where the caller is an admin. On the
// collection and everything in it, only the grants to that organization's
// teams and members stay.
func (s *Service) TransferCollection(ctx context.Context, u *quire.User, id, orgID string) (*CollectionView, error) {
	var out *CollectionView
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		c, err := st.Collection(ctx, id)
		if err != nil {
			return err
		}
		if err := s.checkTransferTarget(ctx, st, u, c.OrgID, orgID); err != nil {
			return err
		}
		grants, err := st.SubtreeGrants(ctx, c.ID)
		if err != nil {
			return err
		}
		if err := dropGrantsOutside(ctx, st, orgID, grants); err != nil {
			return err
		}
		pos, err := lastKey(ctx, st, orgID, "")
		if err != nil {
			return err
		}
		if _, err := st.PlaceCollection(ctx, c.ID, orgID, "", pos); err != nil {
			return err
		}
		out, err = s.collectionView(ctx, st, u, c.ID)
		return err
	})
	return out, err
}

// checkTransferTarget checks a transfer from one organization to another:
// the target must exist for the caller (ENOTFOUND), differ from the source
// (ECONFLICT) and have the caller as admin (EPRECONDITION).
func (s *Service) checkTransferTarget(ctx context.Context, st quire.Store, u *quire.User, from, to string) error {
	if _, err := s.require(ctx, st, u, ScopeOrganization, to, quire.LevelAdmin, quire.EPRECONDITION); err != nil {
		return err
	}
	if from == to {
		return quire.Errorf(quire.ECONFLICT, "the transfer would not result in any update: already in that organization")
	}
	return nil
}
