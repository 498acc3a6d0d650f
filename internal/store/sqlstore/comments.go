package sqlstore

import (
	"context"
	"database/sql"
	"errors"

	"quire/internal/quire"
)

// commentCols are the columns scanComment reads, for a comments table
// aliased c.
const commentCols = `c.id, c.space_id, c.change_request_id, c.revision, c.page_id, c.page_title, c.page_emoji,
	c.page_icon, c.page_path, c.node_id, c.node_preview, c.table_record, c.table_definition, c.body,
	c.posted_by, c.posted_at, c.edited_at, c.status, c.resolved_at, c.resolved_by, c.replies, c.review_id`

// scanComment reads the columns of commentCols.
func scanComment(sc scanner) (*quire.Comment, error) {
	var (
		c                  quire.Comment
		cr, resolvedBy     sql.NullString
		posted             int64
		edited, resolvedAt sql.NullInt64
		body               string
	)
	t := &c.Target
	err := sc.Scan(&c.ID, &c.SpaceID, &cr, &c.Revision, &t.Page, &t.PageTitle, &t.PageEmoji,
		&t.PageIcon, &t.PagePath, &t.Node, &t.NodePreview, &t.TableRecord, &t.TableDefinition, &body,
		&c.PostedBy, &posted, &edited, &c.Status, &resolvedAt, &resolvedBy, &c.Replies, &t.Review)
	if err != nil {
		return nil, err
	}
	c.ChangeRequestID, c.ResolvedBy = cr.String, resolvedBy.String
	c.Body = []byte(body)
	c.PostedAt, c.EditedAt, c.ResolvedAt = fromMillis(posted), fromNullMillis(edited), fromNullMillis(resolvedAt)
	return &c, nil
}

// commentScope adds the conditions selecting the comments of a space
// (changeRequestID "") or of one of its change requests.
func commentScope(w *filter, spaceID, changeRequestID string) {
	w.add("c.space_id = ?", spaceID)
	if changeRequestID == "" {
		w.add("c.change_request_id IS NULL")
	} else {
		w.add("c.change_request_id = ?", changeRequestID)
	}
}

// countComment moves the counter of open comments a comment counts
// towards: its change request's, or its space's.
func (s *Store) countComment(ctx context.Context, c *quire.Comment, delta int) error {
	if delta == 0 {
		return nil
	}
	if c.ChangeRequestID != "" {
		_, err := s.exec(ctx, "UPDATE change_requests SET comments = comments + ? WHERE id = ?", delta, c.ChangeRequestID)
		return err
	}
	_, err := s.exec(ctx, "UPDATE spaces SET comments = comments + ? WHERE id = ?", delta, c.SpaceID)
	return err
}

// openCount is how a comment in a status counts towards the counter of
// open comments.
func openCount(status quire.CommentStatus) int {
	if status == quire.CommentOpen {
		return 1
	}
	return 0
}

// CreateComment stores a comment and counts it, in one transaction. An
// unknown space, change request or user is EINVALID.
func (s *Store) CreateComment(ctx context.Context, c *quire.Comment) error {
	err := s.inTx(ctx, func(tx *Store) error {
		t := c.Target
		_, err := tx.exec(ctx, `INSERT INTO comments (id, space_id, change_request_id, revision, page_id,
			page_title, page_emoji, page_icon, page_path, node_id, node_preview, table_record, table_definition,
			body, posted_by, posted_at, edited_at, status, resolved_at, resolved_by, replies, review_id)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			c.ID, c.SpaceID, nullString(c.ChangeRequestID), c.Revision, t.Page, t.PageTitle, t.PageEmoji, t.PageIcon,
			t.PagePath, t.Node, t.NodePreview, t.TableRecord, t.TableDefinition, string(c.Body), c.PostedBy,
			millis(c.PostedAt), nullMillis(c.EditedAt), c.Status, nullMillis(c.ResolvedAt), nullString(c.ResolvedBy),
			c.Replies, t.Review)
		if err != nil {
			return tx.conflict("create comment", err, "a comment with this id already exists")
		}
		return tx.countComment(ctx, c, openCount(c.Status))
	})
	return wrap("create comment", err)
}

// Comment returns a comment of a space or of a change request, with its
// reactions. Returns ENOTFOUND.
func (s *Store) Comment(ctx context.Context, spaceID, changeRequestID, id string) (*quire.Comment, error) {
	var w filter
	commentScope(&w, spaceID, changeRequestID)
	w.add("c.id = ?", id)
	c, err := scanComment(s.queryRow(ctx, "SELECT "+commentCols+" FROM comments c"+w.where(), w.args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("comment")
	} else if err != nil {
		return nil, wrap("get comment", err)
	}
	reactions, err := s.reactions(ctx, c.ID)
	if err != nil {
		return nil, wrap("get comment", err)
	}
	c.Reactions = reactions[c.ID]
	return c, nil
}

// Comments lists the comments of a space or of a change request by
// posting time, then id, newest first unless f.Order is ascending,
// narrowed by status, target page and authors.
func (s *Store) Comments(ctx context.Context, f quire.CommentFilter, p quire.Page) (*quire.List[*quire.Comment], error) {
	desc := f.Order != quire.OrderAsc
	tag := "cm-desc"
	if !desc {
		tag = "cm-asc"
	}
	var w filter
	commentScope(&w, f.SpaceID, f.ChangeRequestID)
	if f.Status != "" {
		w.add("c.status = ?", f.Status)
	}
	if f.Page != "" {
		w.add("c.page_id = ?", f.Page)
	}
	if len(f.Authors) > 0 {
		marks, args := inList(nil, f.Authors)
		w.add("c.posted_by IN ("+marks+")", args...)
	}
	from := " FROM comments c"
	count, err := s.count(ctx, "SELECT COUNT(*)"+from+w.where(), w.args...)
	if err != nil {
		return nil, wrap("list comments", err)
	}
	if err := seekAfter[int64](&w, p, tag, "c.posted_at", "c.id", desc); err != nil {
		return nil, err
	}
	dir := direction(desc)
	q := "SELECT " + commentCols + from + w.where() + " ORDER BY c.posted_at " + dir + ", c.id " + dir
	items, more, err := fetchPage(ctx, s, q, w.args, p.Size(), scanComment)
	if err != nil {
		return nil, wrap("list comments", err)
	}
	err = withReactions(ctx, s, items, func(c *quire.Comment) string { return c.ID },
		func(c *quire.Comment, rs []quire.Reaction) { c.Reactions = rs })
	if err != nil {
		return nil, wrap("list comments", err)
	}
	return newList(items, more, count, func(c *quire.Comment) string {
		return encodeCursor(tag, millis(c.PostedAt), c.ID)
	}), nil
}

// lockComment locks a comment's row for the rest of the transaction and
// reads it, so that concurrent status changes count once each. Returns
// ENOTFOUND.
func (s *Store) lockComment(ctx context.Context, spaceID, changeRequestID, id string) (*quire.Comment, error) {
	var w filter
	commentScope(&w, spaceID, changeRequestID)
	w.add("c.id = ?", id)
	n, err := s.exec(ctx, "UPDATE comments SET status = status WHERE id IN (SELECT c.id FROM comments c"+w.where()+")", w.args...)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, quire.NotFound("comment")
	}
	return s.Comment(ctx, spaceID, changeRequestID, id)
}

// UpdateComment applies upd to a comment in one transaction: the body
// (stamping the edit time when it changes), the status (stamping or
// clearing who resolved it and when, and moving the counter of open
// comments) and the caller's reactions. Returns ENOTFOUND.
func (s *Store) UpdateComment(ctx context.Context, spaceID, changeRequestID, id string, upd quire.CommentUpdate) (*quire.Comment, error) {
	var out *quire.Comment
	err := s.inTx(ctx, func(tx *Store) error {
		cur, err := tx.lockComment(ctx, spaceID, changeRequestID, id)
		if err != nil {
			return err
		}
		var set setter
		if upd.Body != nil && string(*upd.Body) != string(cur.Body) {
			set.add("body", string(*upd.Body))
			set.add("edited_at", millis(upd.At))
		}
		status := cur.Status
		if upd.Resolved != nil {
			if status = quire.CommentOpen; *upd.Resolved {
				status = quire.CommentResolved
			}
		}
		if status != cur.Status {
			set.add("status", status)
			if status == quire.CommentResolved {
				set.add("resolved_at", millis(upd.At))
				set.add("resolved_by", upd.By)
			} else {
				set.add("resolved_at", nil)
				set.add("resolved_by", nil)
			}
		}
		if !set.empty() {
			if err := tx.update(ctx, "comments", "id = ?", []any{cur.ID}, set, "comment"); err != nil {
				return tx.conflict("update comment", err, "conflicting comment update")
			}
		}
		if err := tx.countComment(ctx, cur, openCount(status)-openCount(cur.Status)); err != nil {
			return err
		}
		if err := tx.react(ctx, cur.ID, cur.ID, "", upd.By, upd.Reactions, upd.At); err != nil {
			return err
		}
		out, err = tx.Comment(ctx, spaceID, changeRequestID, id)
		return err
	})
	return out, wrap("update comment", err)
}

// DeleteComment deletes a comment; its replies and reactions go with it
// (the foreign keys cascade). An open comment is uncounted in the same
// transaction.
func (s *Store) DeleteComment(ctx context.Context, spaceID, changeRequestID, id string) (bool, error) {
	existed := false
	err := s.inTx(ctx, func(tx *Store) error {
		cur, err := tx.lockComment(ctx, spaceID, changeRequestID, id)
		if quire.IsNotFound(err) {
			return nil
		} else if err != nil {
			return err
		}
		if _, err := tx.exec(ctx, "DELETE FROM comments WHERE id = ?", cur.ID); err != nil {
			return err
		}
		existed = true
		return tx.countComment(ctx, cur, -openCount(cur.Status))
	})
	return existed, wrap("delete comment", err)
}
