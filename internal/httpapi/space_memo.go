package httpapi

import (
	"slices"
	"sync"

	"quire/internal/quire"
	"quire/internal/service"
)

// spaceMemoGeneration is how many spaces one generation of spaceMemo
// holds; the memo holds at most two generations.
const spaceMemoGeneration = 8192

// spaceMemo keeps the JSON of the spaces the server answered in lists,
// with the space and level each was written from. An entry is used only
// for a space equal, field for field, to the one it was written from, so
// it can never answer a space as it was before a write: it saves writing
// the same bytes again, nothing more. Entries live two generations: when
// the current one is full it becomes the previous one, and the previous
// one is dropped; an entry found in the previous one moves to the current.
type spaceMemo struct {
	mu        sync.Mutex
	cur, prev map[spaceMemoKey]*spaceMemoEntry
}

// spaceMemoKey names an entry: the JSON of a space depends on the
// caller's level through its permission flags.
type spaceMemoKey struct {
	id    string
	level quire.Level
}

// spaceMemoEntry is the JSON written for a space; neither changes once
// stored.
type spaceMemoEntry struct {
	space quire.Space
	json  []byte
}

// newSpaceMemo returns an empty memo.
func newSpaceMemo() *spaceMemo {
	return &spaceMemo{cur: map[spaceMemoKey]*spaceMemoEntry{}}
}

// lookup returns the entry for sp at level l when one was written from a
// space equal to sp.
func (m *spaceMemo) lookup(sp *quire.Space, l quire.Level) []byte {
	k := spaceMemoKey{sp.ID, l}
	m.mu.Lock()
	e, ok := m.cur[k]
	if !ok {
		if e, ok = m.prev[k]; ok {
			m.add(k, e)
		}
	}
	m.mu.Unlock()
	if !ok || !sameSpace(&e.space, sp) {
		return nil
	}
	return e.json
}

// store records the JSON written for sp at level l.
func (m *spaceMemo) store(sp *quire.Space, l quire.Level, json []byte) {
	e := &spaceMemoEntry{space: *sp, json: json}
	e.space.MergeRules.Rules = cloneMergeRules(sp.MergeRules.Rules)
	if sp.OrgMergeRules != nil {
		r := quire.MergeRules{Type: sp.OrgMergeRules.Type, Rules: cloneMergeRules(sp.OrgMergeRules.Rules)}
		e.space.OrgMergeRules = &r
	}
	if sp.DeletedAt != nil {
		t := *sp.DeletedAt
		e.space.DeletedAt = &t
	}
	m.mu.Lock()
	m.add(spaceMemoKey{sp.ID, l}, e)
	m.mu.Unlock()
}

// add puts an entry in the current generation, starting a new one when
// it is full. The caller holds mu.
func (m *spaceMemo) add(k spaceMemoKey, e *spaceMemoEntry) {
	if len(m.cur) >= spaceMemoGeneration {
		m.prev, m.cur = m.cur, make(map[spaceMemoKey]*spaceMemoEntry, spaceMemoGeneration)
	}
	m.cur[k] = e
}

// sameSpace reports whether two spaces hold the same values in every
// field.
func sameSpace(a, b *quire.Space) bool {
	if a.ID != b.ID || a.OrgID != b.OrgID || a.Title != b.Title || a.Emoji != b.Emoji || a.IconURL != b.IconURL ||
		a.Visibility != b.Visibility || a.EditMode != b.EditMode || a.Parent != b.Parent || a.Language != b.Language ||
		a.DefaultLevel != b.DefaultLevel || a.Revision != b.Revision || a.Position != b.Position ||
		!a.CreatedAt.Equal(b.CreatedAt) || !a.UpdatedAt.Equal(b.UpdatedAt) ||
		a.Comments != b.Comments || a.ChangeRequests != b.ChangeRequests ||
		a.ChangeRequestsOpen != b.ChangeRequestsOpen || a.ChangeRequestsDraft != b.ChangeRequestsDraft {
		return false
	}
	if (a.DeletedAt == nil) != (b.DeletedAt == nil) || (a.DeletedAt != nil && !a.DeletedAt.Equal(*b.DeletedAt)) {
		return false
	}
	if (a.OrgMergeRules == nil) != (b.OrgMergeRules == nil) ||
		(a.OrgMergeRules != nil && !sameMergeRules(*a.OrgMergeRules, *b.OrgMergeRules)) {
		return false
	}
	return sameMergeRules(a.MergeRules, b.MergeRules)
}

// sameMergeRules reports whether two merge rules configurations are equal.
func sameMergeRules(a, b quire.MergeRules) bool {
	return a.Type == b.Type && slices.EqualFunc(a.Rules, b.Rules, sameMergeRule)
}

// sameMergeRule reports whether two merge rules are equal.
func sameMergeRule(a, b quire.MergeRule) bool {
	return a.Rule == b.Rule && a.Expression == b.Expression && slices.Equal(a.Users, b.Users)
}

// cloneMergeRules copies merge rules with their lists of users.
func cloneMergeRules(rules []quire.MergeRule) []quire.MergeRule {
	if rules == nil {
		return nil
	}
	out := slices.Clone(rules)
	for i := range out {
		out[i].Users = slices.Clone(out[i].Users)
	}
	return out
}

// spaceListJSON returns the JSON of a listed space, from the memo when
// it holds it.
func (s *Server) spaceListJSON(v service.SpaceView) []byte {
	if b := s.spaceMemo.lookup(v.Space, v.Level); b != nil {
		return b
	}
	b := s.spaceOut(v.Space, v.Level).appendJSON(nil)
	s.spaceMemo.store(v.Space, v.Level, b)
	return b
}
