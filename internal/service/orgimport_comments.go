package service

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"time"

	"quire/internal/document"
	"quire/internal/quire"
)

// writeComments makes each space's comments and replies, with their
// reactions, in one transaction per space. A comment's page is found by
// the file it was written to, its block by where the block is in the
// page's document; users they name (authors, resolvers, people
// mentioned, people who reacted) are mapped to their accounts here.
func (r *importRun) writeComments(ctx context.Context) error {
	s := r.x.s
	for _, ms := range r.m.Spaces {
		if len(ms.Comments) == 0 {
			continue
		}
		sp := r.spaces[ms.ID]
		pages, err := s.importedPages(ctx, sp)
		if err != nil {
			return err
		}
		rev, err := s.store.Revision(ctx, sp.ID, sp.Revision)
		if err != nil {
			return err
		}
		snap := s.engine.Snapshot(s.store, rev)
		docs := map[string]*document.Document{}
		targets := make([]quire.CommentTarget, len(ms.Comments))
		for i, mc := range ms.Comments {
			t := quire.CommentTarget{PageTitle: mc.PageTitle, PageEmoji: mc.PageEmoji, PageIcon: mc.PageIcon,
				PagePath: mc.PagePath, Node: mc.BlockKey, NodePreview: mc.BlockPreview, TableRecord: mc.TableRecord,
				TableDefinition: mc.TableDefinition}
			p := pages[mc.Page]
			if mc.Page != "" && p == nil {
				r.warn("%s: comment %s was on %s, which the repository does not hold: it is kept on the whole space", ms.Directory, mc.ID, mc.Page)
			}
			if p != nil {
				t.Page = p.ID
				if len(mc.Block) > 0 && p.Type == quire.PageDocument {
					d, ok := docs[p.ID]
					if !ok {
						b, err := snap.Document(ctx, p)
						if err != nil {
							return err
						}
						if d, err = document.ParseStored(b); err != nil {
							return err
						}
						docs[p.ID] = d
					}
					if n, ok := blockAt(d.Nodes, mc.Block); ok && n.Key != "" {
						t.Node = n.Key
					}
				}
			}
			targets[i] = t
		}
		n := 0
		err = s.store.WithTx(ctx, func(st quire.Store) error {
			n = 0
			for i, mc := range ms.Comments {
				if err := r.writeComment(ctx, st, sp, targets[i], mc); err != nil {
					return err
				}
				n++
			}
			return nil
		})
		if err != nil {
			return err
		}
		r.res.Comments += n
	}
	return nil
}

// writeComment makes one comment with its reactions, replies and their
// reactions.
func (r *importRun) writeComment(ctx context.Context, st quire.Store, sp *quire.Space, t quire.CommentTarget, mc ManifestComment) error {
	c := &quire.Comment{ID: quire.NewID(), SpaceID: sp.ID, Revision: sp.Revision, Target: t,
		Body: r.mapMentions(mc.Body), PostedBy: r.id(mc.Author), PostedAt: mc.PostedAt, EditedAt: mc.EditedAt,
		Status: quire.CommentStatus(mc.Status), ResolvedAt: mc.ResolvedAt, ResolvedBy: r.id(mc.ResolvedBy)}
	if c.Status == quire.CommentResolved && c.ResolvedAt == nil {
		at := mc.PostedAt
		c.ResolvedAt = &at
	}
	if err := st.CreateComment(ctx, c); err != nil {
		return err
	}
	r.ids[mc.ID] = c.ID
	err := r.react(mc.Reactions, func(user, emoji string, at time.Time) error {
		_, err := st.UpdateComment(ctx, sp.ID, "", c.ID, quire.CommentUpdate{
			Reactions: quire.ReactionChange{Add: []string{emoji}}, By: user, At: at})
		return err
	})
	if err != nil {
		return err
	}
	for _, mr := range mc.Replies {
		rp := &quire.CommentReply{ID: quire.NewID(), CommentID: c.ID, Body: r.mapMentions(mr.Body),
			PostedBy: r.id(mr.Author), PostedAt: mr.PostedAt, EditedAt: mr.EditedAt}
		if err := st.CreateCommentReply(ctx, rp); err != nil {
			return err
		}
		r.ids[mr.ID] = rp.ID
		err := r.react(mr.Reactions, func(user, emoji string, at time.Time) error {
			_, err := st.UpdateCommentReply(ctx, c.ID, rp.ID, quire.ReplyUpdate{
				Reactions: quire.ReactionChange{Add: []string{emoji}}, By: user, At: at})
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// react replays reactions in the order they were made, each by its
// user's account here; reactions of users the import has no account for
// are left out.
func (r *importRun) react(rs []ManifestReaction, add func(user, emoji string, at time.Time) error) error {
	type one struct {
		user, emoji string
		at          time.Time
		order       int
	}
	var all []one
	for _, re := range rs {
		for _, u := range re.Users {
			if id := r.id(u.User); id != "" {
				all = append(all, one{id, re.Emoji, u.At, len(all)})
			}
		}
	}
	slices.SortStableFunc(all, func(a, b one) int { return cmp.Or(a.at.Compare(b.at), cmp.Compare(a.order, b.order)) })
	for _, o := range all {
		if err := add(o.user, o.emoji, o.at); err != nil {
			return err
		}
	}
	return nil
}

// mapMentions gives the people a comment's body mentions their accounts
// here. A body without mentions is kept byte for byte.
func (r *importRun) mapMentions(body json.RawMessage) json.RawMessage {
	if len(mentions(body)) == 0 {
		return body
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return body
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["ref"].(map[string]any); ok && ref["kind"] == quire.RefUser {
				if old, ok := ref["user"].(string); ok && r.id(old) != "" {
					ref["user"] = r.id(old)
				}
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(v)
	b, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return b
}
