package service

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"quire/internal/quire"
)

// mentionScanPages and mentionScanPage bound how many of the
// organization's members MentionCandidates looks at (and checks the
// access of) while looking for people who can read the space.
const (
	mentionScanPages = 3
	mentionScanPage  = 100
)

// MentionCandidate is someone a comment on a space may mention: a
// person who can read the space, so whom the mention would tell. Email
// is "" when the caller may not see members' emails.
type MentionCandidate struct {
	ID    string
	Name  string
	Email string
}

// MentionCandidates lists up to limit people who can read a space and
// whose name holds q, for the composer's suggestions; the caller must be
// able to comment on the space. Members of the space's organization also
// match on email and see the candidates' emails; guests match on name
// only and see no emails.
func (s *Service) MentionCandidates(ctx context.Context, w Commenter, spaceID, q string, limit int) ([]MentionCandidate, error) {
	if w.User == nil || w.Level < quire.LevelComment {
		return nil, quire.Errorf(quire.EFORBIDDEN, "suggesting people to mention needs the comment role or above")
	}
	sp, err := s.Space(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	emails := false
	if m, err := s.store.Member(ctx, sp.OrgID, w.User.ID); err == nil {
		emails = m.Role != "" && !m.Disabled
	} else if !quire.IsNotFound(err) {
		return nil, err
	}
	q = strings.TrimSpace(q)
	lq := strings.ToLower(q)
	out := []MentionCandidate{}
	page := quire.Page{Limit: mentionScanPage}
	for range mentionScanPages {
		l, err := s.store.Members(ctx, sp.OrgID, quire.MemberFilter{Search: q, Sort: quire.SortJoinedAt, Order: quire.OrderAsc}, page)
		if err != nil {
			return nil, err
		}
		for _, mb := range l.Items {
			if mb.Disabled || (!emails && !strings.Contains(strings.ToLower(mb.User.DisplayName), lq)) {
				continue
			}
			reads, err := s.readsSpace(ctx, sp.ID, mb.User.ID)
			if err != nil {
				return nil, err
			}
			if !reads {
				continue
			}
			c := MentionCandidate{ID: mb.User.ID, Name: mb.User.DisplayName}
			if emails {
				c.Email = mb.User.Email
			}
			out = append(out, c)
			if len(out) >= limit {
				return out, nil
			}
		}
		if l.Next == "" {
			break
		}
		page.Cursor = l.Next
	}
	return out, nil
}

// readsSpace reports whether a user can read a space.
func (s *Service) readsSpace(ctx context.Context, spaceID, userID string) (bool, error) {
	f, err := s.store.SpaceFacts(ctx, spaceID, userID)
	if err != nil {
		return false, err
	}
	return f.Level() >= quire.LevelRead, nil
}

// checkMentions refuses a comment or reply body that mentions someone
// who cannot read the space (field names it). Mentions already in the
// body being edited (before) pass: fixing a typo in a comment does not
// fail because someone it mentioned has since lost access.
func (s *Service) checkMentions(ctx context.Context, spaceID, field string, body, before json.RawMessage) error {
	had := mentions(before)
	for _, id := range mentions(body) {
		if slices.Contains(had, id) {
			continue
		}
		ok, err := s.readsSpace(ctx, spaceID, id)
		if err != nil {
			return err
		}
		if !ok {
			return quire.Invalid(field, "mentions %q, who cannot read this space", id)
		}
	}
	return nil
}
