package sqlstore

import (
	"context"
	"slices"

	"quire/internal/quire"
)

// readAhead is a space and change requests of it read in one statement
// for the operations of a batch (ReadChangeRequestsAhead), each change
// request handed out once by SpaceChangeRequest. It lives in the
// transaction's txWrites and is dropped by any write of the transaction
// (forgetAhead) but MarkMerged of the space, which puts back the space's
// row as its statement left it.
type readAhead struct {
	space *quire.Space
	crs   map[string]*quire.ChangeRequest
}

// ReadChangeRequestsAhead reads the space and the named change requests
// of it in one statement, for SpaceChangeRequest to answer each once from
// it in this transaction. It reads only where the engine chains writes,
// since there MarkMerged returns the space's row and the read saves a
// round trip per operation of the batch; on an engine in the process
// (SQLite) a read costs no round trip, and nothing is read ahead.
// Outside a transaction, and for fewer than two change requests, it does
// nothing either.
func (s *Store) ReadChangeRequestsAhead(ctx context.Context, spaceID string, ids []string) error {
	if s.txw == nil || !s.chainsWrites() {
		return nil
	}
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	if len(ids) < 2 {
		return nil
	}
	in, args := inList([]any{spaceID}, ids)
	// The organization's merge rules come along, as SpaceChangeRequest
	// gives them, so that a merge under inherit rules reads nothing more.
	rows, err := s.query(ctx, "SELECT "+spaceCols+", "+changeRequestCols+`, o.merge_rules
		FROM spaces s JOIN change_requests c ON c.space_id = s.id
		JOIN organizations o ON o.id = s.org_id
		WHERE s.id = ? AND c.id IN (`+in+")", args...)
	if err != nil {
		return wrap("read change requests ahead", err)
	}
	defer rows.Close()
	a := &readAhead{crs: make(map[string]*quire.ChangeRequest, len(ids))}
	for rows.Next() {
		var (
			cr       crReader
			orgRules string
		)
		sp, err := scanSpace(rowScanner{rows: rows, extra: append(cr.dest(), &orgRules)})
		if err != nil {
			return wrap("read change requests ahead", err)
		}
		rules, err := decodeMergeRules(orgRules)
		if err != nil {
			return wrap("read change requests ahead", err)
		}
		sp.OrgMergeRules = &rules
		a.space = sp
		c := cr.result()
		a.crs[c.ID] = c
	}
	if err := rows.Err(); err != nil {
		return wrap("read change requests ahead", err)
	}
	if a.space != nil {
		s.txw.ahead = a
	}
	return nil
}

// fromAhead answers SpaceChangeRequest from the transaction's read-ahead,
// once per change request, with copies.
func (s *Store) fromAhead(spaceID, crID string) (*quire.Space, *quire.ChangeRequest, bool) {
	if s.txw == nil || s.txw.ahead == nil || s.txw.ahead.space.ID != spaceID {
		return nil, nil, false
	}
	a := s.txw.ahead
	c, ok := a.crs[crID]
	if !ok {
		return nil, nil, false
	}
	delete(a.crs, crID)
	sp := cloneSpace(a.space)
	out := *c
	out.Description = slices.Clone(c.Description)
	return &sp, &out, true
}

// forgetAhead drops the transaction's read-ahead: a write may have
// changed what it holds.
func (s *Store) forgetAhead() {
	if s.txw != nil {
		s.txw.ahead = nil
	}
}
