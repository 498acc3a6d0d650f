package sqlstore

import (
	"context"
	"time"

	"quire/internal/quire"
)

// react applies one user's reaction changes to a comment or reply
// (target), whose comment is commentID; replyID is set for a reply.
// Adding a reaction the user already made changes nothing, and so does
// removing one they did not make. Removals apply after additions.
func (s *Store) react(ctx context.Context, commentID, target, replyID, userID string, ch quire.ReactionChange, at time.Time) error {
	for _, emoji := range ch.Add {
		_, err := s.exec(ctx, `INSERT INTO comment_reactions (target, comment_id, reply_id, emoji, user_id, reacted_at)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (target, emoji, user_id) DO NOTHING`,
			target, commentID, nullString(replyID), emoji, userID, millis(at))
		if err != nil {
			return s.conflict("add reaction", err, "conflicting reaction")
		}
	}
	for _, emoji := range ch.Remove {
		_, err := s.exec(ctx, "DELETE FROM comment_reactions WHERE target = ? AND emoji = ? AND user_id = ?",
			target, emoji, userID)
		if err != nil {
			return err
		}
	}
	return nil
}

// reactions reads the reactions to the given comments or replies, keyed
// by target: each emoji with its users in the order they reacted, and the
// emoji in the order of their first reaction (then by emoji).
func (s *Store) reactions(ctx context.Context, targets ...string) (map[string][]quire.Reaction, error) {
	out := map[string][]quire.Reaction{}
	if len(targets) == 0 {
		return out, nil
	}
	marks, args := inList(nil, targets)
	rows, err := s.query(ctx, `SELECT target, emoji, user_id, reacted_at FROM comment_reactions
		WHERE target IN (`+marks+`) ORDER BY target, reacted_at, emoji, user_id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	index := map[string]int{} // target + emoji → position in out[target]
	for rows.Next() {
		var (
			target, emoji, user string
			at                  int64
		)
		if err := rows.Scan(&target, &emoji, &user, &at); err != nil {
			return nil, err
		}
		key := target + "\x00" + emoji
		i, ok := index[key]
		if !ok {
			i = len(out[target])
			index[key] = i
			out[target] = append(out[target], quire.Reaction{Emoji: emoji})
		}
		r := &out[target][i]
		r.Users = append(r.Users, quire.Reacted{UserID: user, At: fromMillis(at)})
	}
	return out, rows.Err()
}

// withReactions loads the reactions of a page of comments or replies in
// one query and hands each item its own.
func withReactions[T any](ctx context.Context, s *Store, items []T, id func(T) string, set func(T, []quire.Reaction)) error {
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = id(it)
	}
	reactions, err := s.reactions(ctx, ids...)
	if err != nil {
		return err
	}
	for _, it := range items {
		set(it, reactions[id(it)])
	}
	return nil
}
