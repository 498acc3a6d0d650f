package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"quire/internal/quire"
)

// reviewCols are the columns scanReview reads, for a reviews table
// aliased r.
const reviewCols = `r.id, r.space_id, r.change_request_id, r.revision, r.reviewer, r.requested_by, r.status,
	r.comment_id, r.superseded, r.created_at, r.updated_at`

// scanReview reads the columns of reviewCols.
func scanReview(sc scanner) (*quire.Review, error) {
	var (
		r                quire.Review
		requestedBy, cm  sql.NullString
		created, updated int64
	)
	err := sc.Scan(&r.ID, &r.SpaceID, &r.ChangeRequestID, &r.Revision, &r.Reviewer, &requestedBy, &r.Status,
		&cm, &r.Superseded, &created, &updated)
	if err != nil {
		return nil, err
	}
	r.RequestedBy, r.CommentID = requestedBy.String, cm.String
	r.CreatedAt, r.UpdatedAt = fromMillis(created), fromMillis(updated)
	return &r, nil
}

// CreateReview stores a review in one transaction: the reviewer's earlier
// reviews of the change request become superseded, and their request to
// review is removed. An unknown change request, user or comment is
// EINVALID.
func (s *Store) CreateReview(ctx context.Context, r *quire.Review) error {
	err := s.inTx(ctx, func(tx *Store) error {
		if _, err := tx.exec(ctx, `UPDATE change_request_reviews SET superseded = ?, updated_at = ?
			WHERE change_request_id = ? AND reviewer = ? AND superseded = ?`,
			true, millis(r.CreatedAt), r.ChangeRequestID, r.Reviewer, false); err != nil {
			return err
		}
		_, err := tx.exec(ctx, `INSERT INTO change_request_reviews (id, space_id, change_request_id, revision, reviewer,
			requested_by, status, comment_id, superseded, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.ID, r.SpaceID, r.ChangeRequestID, r.Revision, r.Reviewer, nullString(r.RequestedBy), r.Status,
			nullString(r.CommentID), r.Superseded, millis(r.CreatedAt), millis(r.UpdatedAt))
		if err != nil {
			return tx.conflict("create review", err, "a review with this id already exists")
		}
		_, err = tx.exec(ctx, "DELETE FROM change_request_reviewers WHERE change_request_id = ? AND user_id = ?",
			r.ChangeRequestID, r.Reviewer)
		return err
	})
	return wrap("create review", err)
}

// reviewFilter adds the conditions of f.
func reviewFilter(w *filter, f quire.ReviewFilter) {
	w.add("r.change_request_id = ?", f.ChangeRequestID)
	switch {
	case f.Outdated == nil:
	case *f.Outdated:
		w.add("(r.superseded = ? OR r.revision <> ?)", true, f.Current)
	default:
		w.add("r.superseded = ? AND r.revision = ?", false, f.Current)
	}
}

// Reviews lists a change request's reviews oldest first (creation time,
// then id), narrowed by whether they are outdated.
func (s *Store) Reviews(ctx context.Context, f quire.ReviewFilter, p quire.Page) (*quire.List[*quire.Review], error) {
	const tag = "review"
	var w filter
	reviewFilter(&w, f)
	from := " FROM change_request_reviews r"
	count, err := s.count(ctx, "SELECT COUNT(*)"+from+w.where(), w.args...)
	if err != nil {
		return nil, wrap("list reviews", err)
	}
	if err := seekAfter[int64](&w, p, tag, "r.created_at", "r.id", false); err != nil {
		return nil, err
	}
	q := "SELECT " + reviewCols + from + w.where() + " ORDER BY r.created_at ASC, r.id ASC"
	items, more, err := fetchPage(ctx, s, q, w.args, p.Size(), scanReview)
	if err != nil {
		return nil, wrap("list reviews", err)
	}
	return newList(items, more, count, func(r *quire.Review) string {
		return encodeCursor(tag, millis(r.CreatedAt), r.ID)
	}), nil
}

// CurrentReviews returns the reviews not outdated against current, oldest
// first.
func (s *Store) CurrentReviews(ctx context.Context, changeRequestID, current string) ([]*quire.Review, error) {
	rows, err := s.query(ctx, "SELECT "+reviewCols+` FROM change_request_reviews r
		WHERE r.change_request_id = ? AND r.superseded = ? AND r.revision = ? ORDER BY r.created_at, r.id`,
		changeRequestID, false, current)
	if err != nil {
		return nil, wrap("list current reviews", err)
	}
	defer rows.Close()
	var out []*quire.Review
	for rows.Next() {
		r, err := scanReview(rows)
		if err != nil {
			return nil, wrap("list current reviews", err)
		}
		out = append(out, r)
	}
	return out, wrap("list current reviews", rows.Err())
}

// RequestReviewers records the requests, each replacing an earlier
// request of its user on its change request. An unknown change request or
// user is EINVALID.
func (s *Store) RequestReviewers(ctx context.Context, rs []*quire.RequestedReviewer) error {
	err := s.inTx(ctx, func(tx *Store) error {
		for _, r := range rs {
			_, err := tx.exec(ctx, `INSERT INTO change_request_reviewers (change_request_id, user_id, revision,
				requested_by, created_at) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT (change_request_id, user_id) DO UPDATE SET revision = excluded.revision,
				requested_by = excluded.requested_by, created_at = excluded.created_at`,
				r.ChangeRequestID, r.UserID, r.Revision, r.RequestedBy, millis(r.CreatedAt))
			if err != nil {
				return tx.conflict("request reviewers", err, "")
			}
		}
		return nil
	})
	return wrap("request reviewers", err)
}

// requestedCols are the columns scanRequested reads.
const requestedCols = "q.change_request_id, q.user_id, q.revision, q.requested_by, q.created_at"

// scanRequested reads the columns of requestedCols.
func scanRequested(sc scanner) (*quire.RequestedReviewer, error) {
	var (
		r  quire.RequestedReviewer
		at int64
	)
	if err := sc.Scan(&r.ChangeRequestID, &r.UserID, &r.Revision, &r.RequestedBy, &at); err != nil {
		return nil, err
	}
	r.CreatedAt = fromMillis(at)
	return &r, nil
}

// RequestedReviewers lists a change request's requested reviewers, oldest
// request first (time, then user id).
func (s *Store) RequestedReviewers(ctx context.Context, changeRequestID string, p quire.Page) (*quire.List[*quire.RequestedReviewer], error) {
	const tag = "reviewer"
	var w filter
	w.add("q.change_request_id = ?", changeRequestID)
	from := " FROM change_request_reviewers q"
	count, err := s.count(ctx, "SELECT COUNT(*)"+from+w.where(), w.args...)
	if err != nil {
		return nil, wrap("list requested reviewers", err)
	}
	if err := seekAfter[int64](&w, p, tag, "q.created_at", "q.user_id", false); err != nil {
		return nil, err
	}
	q := "SELECT " + requestedCols + from + w.where() + " ORDER BY q.created_at ASC, q.user_id ASC"
	items, more, err := fetchPage(ctx, s, q, w.args, p.Size(), scanRequested)
	if err != nil {
		return nil, wrap("list requested reviewers", err)
	}
	return newList(items, more, count, func(r *quire.RequestedReviewer) string {
		return encodeCursor(tag, millis(r.CreatedAt), r.UserID)
	}), nil
}

// AllRequestedReviewers returns every requested reviewer of a change
// request, oldest request first.
func (s *Store) AllRequestedReviewers(ctx context.Context, changeRequestID string) ([]*quire.RequestedReviewer, error) {
	rows, err := s.query(ctx, "SELECT "+requestedCols+` FROM change_request_reviewers q
		WHERE q.change_request_id = ? ORDER BY q.created_at, q.user_id`, changeRequestID)
	if err != nil {
		return nil, wrap("list requested reviewers", err)
	}
	defer rows.Close()
	var out []*quire.RequestedReviewer
	for rows.Next() {
		r, err := scanRequested(rows)
		if err != nil {
			return nil, wrap("list requested reviewers", err)
		}
		out = append(out, r)
	}
	return out, wrap("list requested reviewers", rows.Err())
}

// RemoveRequestedReviewer withdraws a request and reports whether there
// was one.
func (s *Store) RemoveRequestedReviewer(ctx context.Context, changeRequestID, userID string) (bool, error) {
	n, err := s.exec(ctx, "DELETE FROM change_request_reviewers WHERE change_request_id = ? AND user_id = ?",
		changeRequestID, userID)
	return n > 0, wrap("remove requested reviewer", err)
}

// RecordMergeBypass stores the bypass of a merge; the rules are kept as
// one comma-separated text.
func (s *Store) RecordMergeBypass(ctx context.Context, b *quire.MergeBypass) error {
	if b.CreatedAt.IsZero() {
		b.CreatedAt = s.clock()
	}
	rules := make([]string, len(b.Rules))
	for i, r := range b.Rules {
		rules[i] = string(r)
	}
	_, err := s.exec(ctx, `INSERT INTO merge_bypasses (change_request_id, space_id, user_id, revision, rules, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, b.ChangeRequestID, b.SpaceID, b.UserID, b.Revision, strings.Join(rules, ","),
		millis(b.CreatedAt))
	if err != nil {
		return s.conflict("record merge bypass", err, "the merge's bypass is already recorded")
	}
	return nil
}

// MergeBypass returns the bypass recorded for a change request's merge.
// Returns ENOTFOUND.
func (s *Store) MergeBypass(ctx context.Context, changeRequestID string) (*quire.MergeBypass, error) {
	var (
		b     quire.MergeBypass
		rules string
		at    int64
	)
	err := s.queryRow(ctx, `SELECT change_request_id, space_id, user_id, revision, rules, created_at
		FROM merge_bypasses WHERE change_request_id = ?`, changeRequestID).
		Scan(&b.ChangeRequestID, &b.SpaceID, &b.UserID, &b.Revision, &rules, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("merge bypass")
	} else if err != nil {
		return nil, wrap("get merge bypass", err)
	}
	for _, r := range strings.Split(rules, ",") {
		if r != "" {
			b.Rules = append(b.Rules, quire.MergeRuleKind(r))
		}
	}
	b.CreatedAt = fromMillis(at)
	return &b, nil
}
