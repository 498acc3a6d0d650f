package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"

	"quire/internal/quire"
)

// changeRequestCols are the columns scanChangeRequest reads, for a
// change_requests table aliased c.
const changeRequestCols = `c.id, c.space_id, c.number, c.status, c.subject, c.description, c.created_by,
	c.created_at, c.updated_at, c.revision, c.revision_initial, c.revision_merged_ancestor,
	c.revision_merged, c.comments`

// scanChangeRequest reads the columns of changeRequestCols.
func scanChangeRequest(sc scanner) (*quire.ChangeRequest, error) {
	var r crReader
	if err := sc.Scan(r.dest()...); err != nil {
		return nil, err
	}
	return r.result(), nil
}

// crReader holds the destinations of one row of changeRequestCols.
type crReader struct {
	c                quire.ChangeRequest
	description      sql.NullString
	created, updated int64
}

// dest returns where the columns of changeRequestCols are scanned.
func (r *crReader) dest() []any {
	c := &r.c
	return []any{&c.ID, &c.SpaceID, &c.Number, &c.Status, &c.Subject, &r.description, &c.CreatedBy,
		&r.created, &r.updated, &c.Revision, &c.RevisionInitial, &c.RevisionMergedAncestor,
		&c.RevisionMerged, &c.Comments}
}

// result returns the change request scanned.
func (r *crReader) result() *quire.ChangeRequest {
	c := r.c
	if r.description.Valid {
		c.Description = json.RawMessage(r.description.String)
	}
	c.CreatedAt, c.UpdatedAt = fromMillis(r.created), fromMillis(r.updated)
	return &c
}

// encodeDescription stores a description as JSON text, or NULL when there
// is none.
func encodeDescription(d json.RawMessage) any {
	if len(d) == 0 {
		return nil
	}
	return string(d)
}

// statusCounts is how a change request in a status counts towards its
// space's open and draft counters.
func statusCounts(status quire.ChangeRequestStatus) (open, draft int) {
	switch status {
	case quire.CROpen:
		return 1, 0
	case quire.CRDraft:
		return 0, 1
	}
	return 0, 0
}

// CreateChangeRequest stores a change request under the next number of its
// space. One transaction takes the number from the space's counter, whose
// row stays locked until it commits, so concurrent creators, in this
// process or another, get distinct numbers with no gap. The space's
// counters count the new change request. An unknown space is ENOTFOUND.
func (s *Store) CreateChangeRequest(ctx context.Context, c *quire.ChangeRequest) error {
	var number int
	err := s.inTx(ctx, func(tx *Store) error {
		open, draft := statusCounts(c.Status)
		err := tx.writeRow(ctx, `UPDATE spaces SET change_request_seq = change_request_seq + 1,
			change_requests = change_requests + 1,
			change_requests_open = change_requests_open + ?,
			change_requests_draft = change_requests_draft + ?
			WHERE id = ? RETURNING change_request_seq`, open, draft, c.SpaceID).Scan(&number)
		if errors.Is(err, sql.ErrNoRows) {
			return quire.NotFound("space")
		} else if err != nil {
			return err
		}
		_, err = tx.exec(ctx, `INSERT INTO change_requests
			(id, space_id, number, status, subject, description, created_by, created_at, updated_at,
			 revision, revision_initial, revision_merged_ancestor, revision_merged, comments)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			c.ID, c.SpaceID, number, c.Status, c.Subject, encodeDescription(c.Description), c.CreatedBy,
			millis(c.CreatedAt), millis(c.UpdatedAt), c.Revision, c.RevisionInitial,
			c.RevisionMergedAncestor, c.RevisionMerged, c.Comments)
		if err != nil {
			return tx.conflict("create change request", err, "a change request with this id already exists")
		}
		return nil
	})
	if err != nil {
		return wrap("create change request", err)
	}
	c.Number = number
	return nil
}

// ChangeRequest returns a change request of the space by id, or by number
// when idOrNumber is a decimal number that matches one. Returns
// ENOTFOUND.
func (s *Store) ChangeRequest(ctx context.Context, spaceID, idOrNumber string) (*quire.ChangeRequest, error) {
	if n, ok := crNumber(idOrNumber); ok {
		c, err := scanChangeRequest(s.queryRow(ctx,
			"SELECT "+changeRequestCols+" FROM change_requests c WHERE c.space_id = ? AND c.number = ?", spaceID, n))
		if err == nil || !errors.Is(err, sql.ErrNoRows) {
			return c, wrap("get change request", err)
		}
	}
	return s.changeRequestByID(ctx, spaceID, idOrNumber)
}

// SpaceChangeRequest returns a space, deleted or not, and one of its
// change requests by id in one statement; by number, or when either is
// missing, it reads them one after the other, for ENOTFOUND to name the
// one missing; a missing change request comes with its space.
func (s *Store) SpaceChangeRequest(ctx context.Context, spaceID, idOrNumber string) (*quire.Space, *quire.ChangeRequest, error) {
	if sp, c, ok := s.fromAhead(spaceID, idOrNumber); ok {
		return sp, c, nil
	}
	if _, number := crNumber(idOrNumber); !number {
		var (
			cr       crReader
			orgRules string
		)
		// It reads no object and no revision: those a merge batch
		// queued stay queued.
		sp, err := scanSpace(rowScanner{row: s.keeping(queuedObjects|queuedRevisions).queryRow(ctx, "SELECT "+spaceCols+", "+changeRequestCols+`, o.merge_rules
			FROM spaces s JOIN change_requests c ON c.space_id = s.id AND c.id = ?
			JOIN organizations o ON o.id = s.org_id
			WHERE s.id = ?`, idOrNumber, spaceID), extra: append(cr.dest(), &orgRules)})
		if err == nil {
			rules, err := decodeMergeRules(orgRules)
			if err != nil {
				return nil, nil, wrap("get space and change request", err)
			}
			sp.OrgMergeRules = &rules
			return sp, cr.result(), nil
		} else if !errors.Is(err, sql.ErrNoRows) {
			return nil, nil, wrap("get space and change request", err)
		}
	}
	sp, err := s.Space(ctx, spaceID)
	if err != nil {
		return nil, nil, err
	}
	c, err := s.ChangeRequest(ctx, spaceID, idOrNumber)
	if err != nil {
		return sp, nil, err
	}
	return sp, c, nil
}

// changeRequestByID returns a change request of the space by id, or
// ENOTFOUND.
func (s *Store) changeRequestByID(ctx context.Context, spaceID, id string) (*quire.ChangeRequest, error) {
	c, err := scanChangeRequest(s.queryRow(ctx,
		"SELECT "+changeRequestCols+" FROM change_requests c WHERE c.space_id = ? AND c.id = ?", spaceID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("change request")
	}
	return c, wrap("get change request", err)
}

// crNumber parses a change request number: decimal digits only.
func crNumber(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// ChangeRequests lists change requests newest first (by creation time,
// then id): those of f.SpaceID, or those in the live spaces of f.OrgID,
// kept to f.SpaceIDs when it is set, narrowed by status, creator, contributor and requested reviewer.
func (s *Store) ChangeRequests(ctx context.Context, f quire.ChangeRequestFilter, p quire.Page) (*quire.List[*quire.ChangeRequest], error) {
	const tag = "cr"
	from := " FROM change_requests c"
	var w filter
	if f.SpaceID != "" {
		w.add("c.space_id = ?", f.SpaceID)
	}
	if f.OrgID != "" {
		from += " JOIN spaces s ON s.id = c.space_id"
		w.add("s.org_id = ? AND s.deleted_at IS NULL", f.OrgID)
	}
	if f.SpaceIDs != nil {
		if len(f.SpaceIDs) == 0 {
			return &quire.List[*quire.ChangeRequest]{}, nil
		}
		cond, arg, err := s.inList("c.space_id", f.SpaceIDs)
		if err != nil {
			return nil, err
		}
		w.add(cond, arg)
	}
	if f.Status != "" {
		w.add("c.status = ?", f.Status)
	}
	if f.Creator != "" {
		w.add("c.created_by = ?", f.Creator)
	}
	if f.Contributor != "" {
		w.add(`EXISTS (SELECT 1 FROM change_request_contributors cc
			WHERE cc.change_request_id = c.id AND cc.user_id = ?)`, f.Contributor)
	}
	if f.Reviewer != "" {
		w.add(`EXISTS (SELECT 1 FROM change_request_reviewers rq
			WHERE rq.change_request_id = c.id AND rq.user_id = ?)`, f.Reviewer)
	}
	count, err := s.count(ctx, "SELECT COUNT(*)"+from+w.where(), w.args...)
	if err != nil {
		return nil, wrap("list change requests", err)
	}
	if err := seekAfter[int64](&w, p, tag, "c.created_at", "c.id", true); err != nil {
		return nil, err
	}
	q := "SELECT " + changeRequestCols + from + w.where() + " ORDER BY c.created_at DESC, c.id DESC"
	items, more, err := fetchPage(ctx, s, q, w.args, p.Size(), scanChangeRequest)
	if err != nil {
		return nil, wrap("list change requests", err)
	}
	return newList(items, more, count, func(c *quire.ChangeRequest) string {
		return encodeCursor(tag, millis(c.CreatedAt), c.ID)
	}), nil
}

// UpdateChangeRequest applies the non-nil fields of upd and stamps the
// update time when anything changes. The change request's row is locked
// first, so that upd.IfRevision and upd.IfStatus compare with the latest
// revision and status (a quire.Stale ECONFLICT when either moved) and
// concurrent status changes count once each: when the
// status changes, the space's open and draft counters move with it in the
// same transaction (queued: see moveCounts). Returns ENOTFOUND.
//
// When the old status is known without reading it (the status does not
// change, or upd.IfStatus names one status), the update is first tried as
// one conditional statement (see casChangeRequest); only when it matches
// no row does the update lock and read the row to tell why.
func (s *Store) UpdateChangeRequest(ctx context.Context, spaceID, id string, upd quire.ChangeRequestUpdate) (*quire.ChangeRequest, error) {
	var out *quire.ChangeRequest
	err := s.inTx(ctx, func(tx *Store) error {
		var err error
		if out, err = tx.casChangeRequest(ctx, spaceID, id, upd); out != nil || err != nil {
			return err
		}
		n, err := tx.exec(ctx, "UPDATE change_requests SET status = status WHERE space_id = ? AND id = ?", spaceID, id)
		if err != nil {
			return err
		}
		if n == 0 {
			return quire.NotFound("change request")
		}
		cur, err := tx.changeRequestByID(ctx, spaceID, id)
		if err != nil {
			return err
		}
		if upd.IfRevision != nil && cur.Revision != *upd.IfRevision {
			return quire.Stale("the change request's content changed meanwhile; try again")
		}
		if len(upd.IfStatus) > 0 && !slices.Contains(upd.IfStatus, cur.Status) {
			return quire.Stale("the change request is %s now; try again", cur.Status)
		}
		set := changeRequestSet(upd)
		if set.empty() {
			out = cur
			return nil
		}
		set.add("updated_at", millis(tx.clock()))
		if err := tx.update(ctx, "change_requests", "space_id = ? AND id = ?", []any{spaceID, id}, set, "change request"); err != nil {
			return err
		}
		if upd.Status != nil {
			tx.moveCounts(spaceID, cur.Status, *upd.Status)
		}
		out, err = tx.changeRequestByID(ctx, spaceID, id)
		return err
	})
	return out, wrap("update change request", err)
}

// AddContributor records that a user contributed to a change request;
// recording it again changes nothing. An unknown change request or user
// is EINVALID.
func (s *Store) AddContributor(ctx context.Context, changeRequestID, userID string) error {
	_, err := s.exec(ctx, `INSERT INTO change_request_contributors (change_request_id, user_id) VALUES (?, ?)
		ON CONFLICT (change_request_id, user_id) DO NOTHING`, changeRequestID, userID)
	if err != nil {
		return s.conflict("add contributor", err, "already a contributor")
	}
	return nil
}

// casChangeRequest applies upd in one UPDATE whose WHERE clause holds
// upd.IfRevision and upd.IfStatus and which returns the updated row,
// then moves the space's counters when the status changed. It returns a
// nil change request, having changed nothing, when no row matched (the
// caller finds out why) or when upd needs the current row read first: an
// update that sets nothing, or a status change from a status not known in
// advance. The database checks the conditions on the latest row version
// under the row's lock, so it is the same compare-and-swap as reading
// under the lock first.
func (s *Store) casChangeRequest(ctx context.Context, spaceID, id string, upd quire.ChangeRequestUpdate) (*quire.ChangeRequest, error) {
	if upd.Status != nil && len(upd.IfStatus) != 1 {
		return nil, nil
	}
	set := changeRequestSet(upd)
	if set.empty() {
		return nil, nil
	}
	set.add("updated_at", millis(s.clock()))
	q := "UPDATE change_requests SET " + strings.Join(set.cols, ", ") + " WHERE space_id = ? AND id = ?"
	args := append(set.args, spaceID, id)
	if upd.IfRevision != nil {
		q += " AND revision = ?"
		args = append(args, *upd.IfRevision)
	}
	if len(upd.IfStatus) > 0 {
		q += " AND status IN (" + placeholders(len(upd.IfStatus)) + ")"
		for _, st := range upd.IfStatus {
			args = append(args, st)
		}
	}
	// SQLite's RETURNING names the updated table's columns unqualified.
	q += " RETURNING " + strings.ReplaceAll(changeRequestCols, "c.", "")
	out, err := scanChangeRequest(s.writeRow(ctx, q, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if upd.Status != nil {
		s.moveCounts(spaceID, upd.IfStatus[0], *upd.Status)
	}
	return out, nil
}

// changeRequestSet is the columns upd sets, updated_at aside.
func changeRequestSet(upd quire.ChangeRequestUpdate) setter {
	var set setter
	setIf(&set, "subject", upd.Subject)
	if upd.Description != nil {
		set.add("description", encodeDescription(*upd.Description))
	}
	setIf(&set, "status", upd.Status)
	setIf(&set, "revision", upd.Revision)
	setIf(&set, "revision_merged_ancestor", upd.RevisionMergedAncestor)
	setIf(&set, "revision_merged", upd.RevisionMerged)
	return set
}

// moveCounts queues, on a transaction, the move of the space's open and
// draft counters for a change request going from one status to another:
// it is sent with the transaction's other queued writes, or with the
// space's revision when the transaction moves it next (see txWrites).
func (s *Store) moveCounts(spaceID string, from, to quire.ChangeRequestStatus) {
	oldOpen, oldDraft := statusCounts(from)
	newOpen, newDraft := statusCounts(to)
	if oldOpen == newOpen && oldDraft == newDraft {
		return
	}
	s.forgetAhead()
	s.txw.counts = append(s.txw.counts, countMove{spaceID: spaceID, open: newOpen - oldOpen, draft: newDraft - oldDraft})
}
