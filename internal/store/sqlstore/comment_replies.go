package sqlstore

import (
	"context"
	"database/sql"
	"errors"

	"quire/internal/quire"
)

// replyCols are the columns scanReply reads, for a comment_replies table
// aliased r.
const replyCols = `r.id, r.comment_id, r.body, r.posted_by, r.posted_at, r.edited_at`

// scanReply reads the columns of replyCols.
func scanReply(sc scanner) (*quire.CommentReply, error) {
	var (
		r      quire.CommentReply
		body   string
		posted int64
		edited sql.NullInt64
	)
	if err := sc.Scan(&r.ID, &r.CommentID, &body, &r.PostedBy, &posted, &edited); err != nil {
		return nil, err
	}
	r.Body = []byte(body)
	r.PostedAt, r.EditedAt = fromMillis(posted), fromNullMillis(edited)
	return &r, nil
}

// CreateCommentReply stores a reply and counts it on its comment, in one
// transaction. An unknown comment is ENOTFOUND, an unknown user EINVALID.
func (s *Store) CreateCommentReply(ctx context.Context, r *quire.CommentReply) error {
	err := s.inTx(ctx, func(tx *Store) error {
		n, err := tx.exec(ctx, "UPDATE comments SET replies = replies + 1 WHERE id = ?", r.CommentID)
		if err != nil {
			return err
		}
		if n == 0 {
			return quire.NotFound("comment")
		}
		_, err = tx.exec(ctx, `INSERT INTO comment_replies (id, comment_id, body, posted_by, posted_at, edited_at)
			VALUES (?, ?, ?, ?, ?, ?)`,
			r.ID, r.CommentID, string(r.Body), r.PostedBy, millis(r.PostedAt), nullMillis(r.EditedAt))
		if err != nil {
			return tx.conflict("create reply", err, "a reply with this id already exists")
		}
		return nil
	})
	return wrap("create reply", err)
}

// CommentReply returns a reply of a comment with its reactions. Returns
// ENOTFOUND.
func (s *Store) CommentReply(ctx context.Context, commentID, id string) (*quire.CommentReply, error) {
	r, err := scanReply(s.queryRow(ctx,
		"SELECT "+replyCols+" FROM comment_replies r WHERE r.comment_id = ? AND r.id = ?", commentID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("reply")
	} else if err != nil {
		return nil, wrap("get reply", err)
	}
	reactions, err := s.reactions(ctx, r.ID)
	if err != nil {
		return nil, wrap("get reply", err)
	}
	r.Reactions = reactions[r.ID]
	return r, nil
}

// CommentReplies lists a comment's replies oldest first (by posting time,
// then id), with their reactions.
func (s *Store) CommentReplies(ctx context.Context, commentID string, p quire.Page) (*quire.List[*quire.CommentReply], error) {
	const tag = "cr-reply"
	var w filter
	w.add("r.comment_id = ?", commentID)
	from := " FROM comment_replies r"
	count, err := s.count(ctx, "SELECT COUNT(*)"+from+w.where(), w.args...)
	if err != nil {
		return nil, wrap("list replies", err)
	}
	if err := seekAfter[int64](&w, p, tag, "r.posted_at", "r.id", false); err != nil {
		return nil, err
	}
	q := "SELECT " + replyCols + from + w.where() + " ORDER BY r.posted_at ASC, r.id ASC"
	items, more, err := fetchPage(ctx, s, q, w.args, p.Size(), scanReply)
	if err != nil {
		return nil, wrap("list replies", err)
	}
	err = withReactions(ctx, s, items, func(r *quire.CommentReply) string { return r.ID },
		func(r *quire.CommentReply, rs []quire.Reaction) { r.Reactions = rs })
	if err != nil {
		return nil, wrap("list replies", err)
	}
	return newList(items, more, count, func(r *quire.CommentReply) string {
		return encodeCursor(tag, millis(r.PostedAt), r.ID)
	}), nil
}

// UpdateCommentReply applies upd to a reply in one transaction: the body
// (stamping the edit time when it changes) and the caller's reactions.
// Returns ENOTFOUND.
func (s *Store) UpdateCommentReply(ctx context.Context, commentID, id string, upd quire.ReplyUpdate) (*quire.CommentReply, error) {
	var out *quire.CommentReply
	err := s.inTx(ctx, func(tx *Store) error {
		cur, err := tx.CommentReply(ctx, commentID, id)
		if err != nil {
			return err
		}
		if upd.Body != nil && string(*upd.Body) != string(cur.Body) {
			var set setter
			set.add("body", string(*upd.Body))
			set.add("edited_at", millis(upd.At))
			if err := tx.update(ctx, "comment_replies", "id = ?", []any{cur.ID}, set, "reply"); err != nil {
				return err
			}
		}
		if err := tx.react(ctx, commentID, cur.ID, cur.ID, upd.By, upd.Reactions, upd.At); err != nil {
			return err
		}
		out, err = tx.CommentReply(ctx, commentID, id)
		return err
	})
	return out, wrap("update reply", err)
}

// DeleteCommentReply deletes a reply (its reactions go with it) and
// uncounts it on its comment, in one transaction.
func (s *Store) DeleteCommentReply(ctx context.Context, commentID, id string) (bool, error) {
	existed := false
	err := s.inTx(ctx, func(tx *Store) error {
		n, err := tx.exec(ctx, "DELETE FROM comment_replies WHERE comment_id = ? AND id = ?", commentID, id)
		if err != nil || n == 0 {
			return err
		}
		existed = true
		_, err = tx.exec(ctx, "UPDATE comments SET replies = replies - 1 WHERE id = ?", commentID)
		return err
	})
	return existed, wrap("delete reply", err)
}
