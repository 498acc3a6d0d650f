package service

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"quire/internal/quire"
)

// SpaceView is a space with the caller's level on it.
type SpaceView struct {
	Space *quire.Space
	Level quire.Level
}

// SpaceInput are the settings of a new space.
type SpaceInput struct {
	Title    string
	Emoji    string
	Parent   string
	Language string
	EditMode quire.EditMode
	// Visibility defaults to private.
	Visibility quire.Visibility
	// Access, when set, is what Access loaded for the organization in
	// the same request: the new space's level is resolved from its
	// facts instead of reading them again. One loaded for another user
	// or organization is not used.
	Access *OrgAccess
}

// Space returns a space, deleted or not.
func (s *Service) Space(ctx context.Context, id string) (*quire.Space, error) {
	sp, err := s.store.Space(ctx, id)
	if quire.IsNotFound(err) {
		return nil, quire.NotFound("space")
	}
	return sp, err
}

// liveSpace returns a space that is not deleted.
func liveSpace(ctx context.Context, st quire.Store, id string) (*quire.Space, error) {
	sp, err := st.Space(ctx, id)
	if quire.IsNotFound(err) {
		return nil, quire.NotFound("space")
	} else if err != nil {
		return nil, err
	}
	if sp.DeletedAt != nil {
		return nil, quire.Errorf(quire.EINVALID, "the space is deleted; restore it first")
	}
	return sp, nil
}

// Spaces lists the live spaces of an organization.
func (s *Service) Spaces(ctx context.Context, u *quire.User, orgID string, p quire.Page) (*quire.List[SpaceView], error) {
	return s.spaces(ctx, u, orgID, nil, p)
}

// SpacesAfterAccess lists the live spaces of the organization Access
// loaded acc for, taking the facts its root spaces inherit from acc
// instead of reading them again. An acc loaded for another user is not
// used.
func (s *Service) SpacesAfterAccess(ctx context.Context, u *quire.User, acc OrgAccess, p quire.Page) (*quire.List[SpaceView], error) {
	roots := map[string]quire.Facts{}
	if acc.UserID == u.ID {
		roots[acc.Facts.OrgID] = acc.Facts
	}
	return s.spaces(ctx, u, acc.Facts.OrgID, roots, p)
}

// spaces lists the live spaces of an organization; roots holds the facts
// root spaces inherit where they are known already.
func (s *Service) spaces(ctx context.Context, u *quire.User, orgID string, roots map[string]quire.Facts, p quire.Page) (*quire.List[SpaceView], error) {
	l, err := s.store.Spaces(ctx, quire.SpaceFilter{OrgID: orgID}, p)
	if err != nil {
		return nil, err
	}
	return s.spaceViewsWith(ctx, u, l, roots)
}

// spaceViews resolves the caller's level on each listed space.
func (s *Service) spaceViews(ctx context.Context, u *quire.User, l *quire.List[*quire.Space]) (*quire.List[SpaceView], error) {
	return s.spaceViewsWith(ctx, u, l, nil)
}

// spaceViewsWith is spaceViews with the facts of some organizations'
// root spaces known already.
func (s *Service) spaceViewsWith(ctx context.Context, u *quire.User, l *quire.List[*quire.Space], roots map[string]quire.Facts) (*quire.List[SpaceView], error) {
	levels, err := s.spaceLevelsWith(ctx, u, l.Items, roots)
	if err != nil {
		return nil, err
	}
	out := &quire.List[SpaceView]{Next: l.Next, Count: l.Count, Items: make([]SpaceView, 0, len(l.Items))}
	for i, sp := range l.Items {
		out.Items = append(out.Items, SpaceView{Space: sp, Level: levels[i]})
	}
	return out, nil
}

// spaceView loads a space with the caller's level.
func (s *Service) spaceView(ctx context.Context, st quire.Store, u *quire.User, id string) (*SpaceView, error) {
	sp, err := st.Space(ctx, id)
	if err != nil {
		return nil, err
	}
	f, err := st.SpaceFacts(ctx, id, u.ID)
	if err != nil {
		return nil, err
	}
	return &SpaceView{Space: sp, Level: f.Level()}, nil
}

// CreateSpace creates a space at the organization's root or in a
// collection where the caller may create. A visibility other than private
// takes what changing it later takes: the admin role on the new space.
//
// Creates of one organization queued in this process share a transaction
// and its commit (see writeQueues). The writer's transaction holds only
// the statements that must see the latest state (the parent's check, the
// last position, the inserts); the
// caller's level on a private space, for the answer, is read after the
// commit, from the read pool, so that concurrent creates do not wait
// behind reads they could do side by side.
func (s *Service) CreateSpace(ctx context.Context, u *quire.User, orgID string, in SpaceInput) (*SpaceView, error) {
	var out *SpaceView
	err := s.batches.do(ctx, s.store, orgID, "", func(ctx context.Context, st quire.Store) (bool, error) {
		var err error
		out, err = s.createSpace(ctx, st, u, orgID, in)
		return false, err
	})
	if err != nil || out.Level != quire.LevelNone {
		return out, err
	}
	var roots map[string]quire.Facts
	if a := in.Access; a != nil && a.UserID == u.ID && a.Facts.OrgID == orgID {
		roots = map[string]quire.Facts{orgID: a.Facts}
	}
	levels, err := s.spaceLevelsWith(ctx, u, []*quire.Space{out.Space}, roots)
	if err != nil {
		return nil, err
	}
	out.Level = levels[0]
	return out, nil
}

// createSpace is CreateSpace on st, inside a transaction. The view's level
// is resolved only when the visibility asked for needs it; it is
// LevelNone otherwise, for the caller to resolve.
func (s *Service) createSpace(ctx context.Context, st quire.Store, u *quire.User, orgID string, in SpaceInput) (*SpaceView, error) {
	title := strings.TrimSpace(in.Title)
	if title == "" {
		title = "Untitled"
	}
	if in.EditMode == "" {
		in.EditMode = quire.EditModeLive
	}
	if in.Visibility == "" {
		in.Visibility = quire.VisibilityPrivate
	}
	if in.Visibility == quire.VisibilityInCollection && in.Parent == "" {
		return nil, quire.Invalid("visibility", "in-collection is only for spaces in a collection")
	}
	if in.Parent != "" {
		if err := s.requireParent(ctx, st, u, orgID, "parent", in.Parent); err != nil {
			return nil, err
		}
	}
	pos, err := lastKey(ctx, st, orgID, in.Parent)
	if err != nil {
		return nil, err
	}
	now := s.Now()
	sp := &quire.Space{ID: quire.NewID(), OrgID: orgID, Title: title, Emoji: in.Emoji,
		Visibility: in.Visibility, EditMode: in.EditMode, Parent: in.Parent, Language: in.Language,
		DefaultLevel: quire.DefaultInherit, MergeRules: quire.MergeRules{Type: quire.MergeRulesInherit},
		Revision: quire.NewID(), Position: pos, CreatedAt: now, UpdatedAt: now}
	if err := st.CreateSpace(ctx, sp); err != nil {
		return nil, err
	}
	if in.Visibility == quire.VisibilityPrivate {
		return &SpaceView{Space: sp}, nil
	}
	out, err := s.spaceView(ctx, st, u, sp.ID)
	if err == nil && out.Level < quire.LevelAdmin {
		return nil, quire.Errorf(quire.EFORBIDDEN, "visibility: setting it needs the admin role on the space; you would have %s", out.Level)
	}
	return out, err
}

// UpdateSpace applies a PATCH to a live space. An installation token
// changes only the fields its scopes allow (see checkScopeFields).
func (s *Service) UpdateSpace(ctx context.Context, u *quire.User, id string, upd quire.SpaceUpdate) (*SpaceView, error) {
	if err := checkScopeFields(u, "updateSpaceById", spaceUpdateFields(upd)); err != nil {
		return nil, err
	}
	if upd.Title != nil {
		if err := checkTitle("title", *upd.Title, 1, 50); err != nil {
			return nil, err
		}
		t := strings.TrimSpace(*upd.Title)
		upd.Title = &t
	}
	if upd.MergeRules != nil {
		if err := checkMergeRules(*upd.MergeRules, true); err != nil {
			return nil, err
		}
		if err := s.checkExpressions(*upd.MergeRules); err != nil {
			return nil, err
		}
	}
	var (
		out  *SpaceView
		prev quire.Visibility
	)
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		sp, err := liveSpace(ctx, st, id)
		if err != nil {
			return err
		}
		prev = sp.Visibility
		if _, err := st.UpdateSpace(ctx, id, upd); err != nil {
			return err
		}
		out, err = s.spaceView(ctx, st, u, id)
		if err != nil || out.Space.Visibility == prev {
			return err
		}
		return audit(ctx, st, quire.AuditEvent{OrgID: sp.OrgID, ActorID: u.ID, Action: quire.AuditSpaceVisibilityChanged,
			TargetKind: quire.AuditTargetSpace, TargetID: id,
			Details: map[string]string{"title": out.Space.Title, "from": string(prev), "to": string(out.Space.Visibility)}})
	})
	if err == nil && out.Space.Visibility != prev {
		s.notifySpace(ctx, SpaceNotice{Kind: NoticeVisibility, SpaceID: id, Visibility: out.Space.Visibility, PreviousVisibility: prev})
	}
	return out, err
}

// DeleteSpace soft-deletes a space; it reports whether a live space was
// there. The space can be restored for RestoreWindow.
func (s *Service) DeleteSpace(ctx context.Context, id string) (bool, error) {
	return s.store.DeleteSpace(ctx, id, s.Now())
}

// RestoreSpace brings back a space deleted less than RestoreWindow ago.
func (s *Service) RestoreSpace(ctx context.Context, u *quire.User, id string) (*SpaceView, error) {
	var out *SpaceView
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		sp, err := st.Space(ctx, id)
		if err != nil {
			return err
		}
		if sp.DeletedAt == nil {
			return quire.Errorf(quire.EINVALID, "the space is not deleted")
		}
		if s.Now().Sub(*sp.DeletedAt) > quire.RestoreWindow {
			return quire.Errorf(quire.EINVALID, "only spaces deleted in the last 7 days can be restored")
		}
		if _, err := st.RestoreSpace(ctx, id); err != nil {
			return err
		}
		out, err = s.spaceView(ctx, st, u, id)
		return err
	})
	return out, err
}

// PurgeDeletedSpaces removes for good the spaces deleted more than
// RestoreWindow ago.
func (s *Service) PurgeDeletedSpaces(ctx context.Context) (int, error) {
	return s.store.PurgeSpaces(ctx, s.Now().Add(-quire.RestoreWindow))
}

// DuplicateSpace creates a copy of a space with the same settings, placed
// right after it.
func (s *Service) DuplicateSpace(ctx context.Context, u *quire.User, id string) (*SpaceView, error) {
	var out *SpaceView
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		src, err := liveSpace(ctx, st, id)
		if err != nil {
			return err
		}
		if src.Parent != "" {
			if err := s.requireParent(ctx, st, u, src.OrgID, "parent", src.Parent); err != nil {
				return err
			}
		} else if _, err := s.require(ctx, st, u, ScopeOrganization, src.OrgID, quire.LevelCreate, quire.EFORBIDDEN); err != nil {
			return err
		}
		sib, err := st.Siblings(ctx, src.OrgID, src.Parent)
		if err != nil {
			return err
		}
		key, _, err := placement(sib, quire.Sibling{Kind: quire.SiblingSpace, ID: "", Position: ""}, Position{After: NewAnchor(quire.SiblingSpace, src.ID)})
		if err != nil {
			return err
		}
		now := s.Now()
		cp := *src
		cp.ID, cp.Revision, cp.Position = quire.NewID(), quire.NewID(), key
		cp.Title = copyTitle(src.Title)
		cp.CreatedAt, cp.UpdatedAt, cp.DeletedAt = now, now, nil
		cp.Comments, cp.ChangeRequests, cp.ChangeRequestsOpen, cp.ChangeRequestsDraft = 0, 0, 0, 0
		if err := st.CreateSpace(ctx, &cp); err != nil {
			return err
		}
		if err := copyContent(ctx, st, src, &cp, u.ID, now); err != nil {
			return err
		}
		out, err = s.spaceView(ctx, st, u, cp.ID)
		return err
	})
	if err == nil {
		s.announceContent(ctx, out.Space.ID)
	}
	return out, err
}

// copyContent gives a new space a first content revision equal to the
// source space's current one, and the source's repository redirects,
// which name the same pages. Objects are shared by content address, so
// the copy costs one revision whatever the size of the content.
func copyContent(ctx context.Context, st quire.Store, src, dst *quire.Space, userID string, now time.Time) error {
	from, err := st.Revision(ctx, src.ID, src.Revision)
	if err != nil {
		return err
	}
	rev := &quire.Revision{ID: quire.NewID(), SpaceID: dst.ID, Type: quire.RevisionEdits,
		Pages: from.Pages, Slugs: from.Slugs, Files: from.Files, CreatedBy: userID, CreatedAt: now}
	if err := st.CreateRevision(ctx, rev); err != nil {
		return err
	}
	if err := advanceSpace(ctx, st, dst.ID, dst.Revision, rev.ID); err != nil {
		return err
	}
	dst.Revision = rev.ID
	if err := copyGitConfig(ctx, st, src.ID, dst.ID); err != nil {
		return err
	}
	rs, err := st.GitRedirects(ctx, src.ID)
	if err != nil || len(rs) == 0 {
		return err
	}
	return st.ReplaceGitRedirects(ctx, dst.ID, rs)
}

// copyTitle names a duplicate, within the 50-character title limit.
func copyTitle(t string) string {
	const suffix = " (copy)"
	for utf8.RuneCountInString(t)+len(suffix) > 50 {
		_, size := utf8.DecodeLastRuneInString(t)
		t = t[:len(t)-size]
	}
	return t + suffix
}

// MoveSpace moves a space under another parent (nil keeps it, a pointer
// to "" is the root) and/or to a position among its new siblings. A move
// that changes nothing is ECONFLICT.
func (s *Service) MoveSpace(ctx context.Context, u *quire.User, id string, parent *string, pos Position) (*SpaceView, error) {
	var out *SpaceView
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		sp, err := liveSpace(ctx, st, id)
		if err != nil {
			return err
		}
		dest := sp.Parent
		if parent != nil {
			dest = *parent
		}
		if dest != "" && dest != sp.Parent {
			if err := s.requireParent(ctx, st, u, sp.OrgID, "parent", dest); err != nil {
				return err
			}
		}
		key, err := s.moveKey(ctx, st, sp.OrgID, sp.Parent, dest, quire.Sibling{Kind: quire.SiblingSpace, ID: sp.ID, Position: sp.Position}, pos)
		if err != nil {
			return err
		}
		if _, err := st.PlaceSpace(ctx, sp.ID, sp.OrgID, dest, key); err != nil {
			return err
		}
		if err := leaveCollection(ctx, st, sp, dest); err != nil {
			return err
		}
		out, err = s.spaceView(ctx, st, u, sp.ID)
		return err
	})
	return out, err
}

// TransferSpace moves a space to the root of another organization where
// the caller is an admin. Only the grants to that organization's teams and
// members stay.
func (s *Service) TransferSpace(ctx context.Context, u *quire.User, id, orgID string) (*SpaceView, error) {
	var out *SpaceView
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		sp, err := liveSpace(ctx, st, id)
		if err != nil {
			return err
		}
		if err := s.checkTransferTarget(ctx, st, u, sp.OrgID, orgID); err != nil {
			return err
		}
		grants, err := st.Grants(ctx, quire.GrantSpace, sp.ID)
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
		if _, err := st.PlaceSpace(ctx, sp.ID, orgID, "", pos); err != nil {
			return err
		}
		if err := leaveCollection(ctx, st, sp, ""); err != nil {
			return err
		}
		out, err = s.spaceView(ctx, st, u, sp.ID)
		return err
	})
	return out, err
}

// leaveCollection makes a space that now sits at the root private if its
// visibility was "in-collection", which only spaces in a collection have.
func leaveCollection(ctx context.Context, st quire.Store, sp *quire.Space, dest string) error {
	if dest != "" || sp.Visibility != quire.VisibilityInCollection {
		return nil
	}
	private := quire.VisibilityPrivate
	_, err := st.UpdateSpace(ctx, sp.ID, quire.SpaceUpdate{Visibility: &private})
	return err
}

// DeletedSpaces lists the spaces of an organization deleted within
// RestoreWindow, most recently deleted first, with the caller's level on
// each; those the caller may not see are left out.
func (s *Service) DeletedSpaces(ctx context.Context, u *quire.User, orgID string) ([]SpaceView, error) {
	l, err := s.store.DeletedSpaces(ctx, orgID, s.Now().Add(-quire.RestoreWindow), quire.MaxLimit)
	if err != nil {
		return nil, err
	}
	views, err := s.spaceViews(ctx, u, &quire.List[*quire.Space]{Items: l})
	if err != nil {
		return nil, err
	}
	out := make([]SpaceView, 0, len(views.Items))
	for _, v := range views.Items {
		if v.Level >= ScopeSpace.Visible() {
			out = append(out, v)
		}
	}
	return out, nil
}
