package service

import (
	"context"

	"quire/internal/document"
	"quire/internal/gitbook"
	"quire/internal/quire"
)

// comments reads the comments of a space's own content (not those of
// its change requests), oldest first, with their replies. placed gives
// the file each document page was written to, relative to the space's
// directory; a commented block is told by where it is in that page's
// document.
func (e *OrgExport) comments(ctx context.Context, sp *quire.Space, tree *gitbook.Space, placed map[string]string) ([]ManifestComment, error) {
	st := e.x.s.store
	list, err := everyPage(func(p quire.Page) (*quire.List[*quire.Comment], error) {
		return st.Comments(ctx, quire.CommentFilter{SpaceID: sp.ID, Order: quire.OrderAsc}, p)
	})
	if err != nil {
		return nil, err
	}
	docs := map[string]*document.Document{}
	var walk func(pages []*gitbook.Page)
	walk = func(pages []*gitbook.Page) {
		for _, p := range pages {
			if p.Document != nil {
				docs[p.ID] = p.Document
			}
			walk(p.Children)
		}
	}
	walk(tree.Pages)
	out := []ManifestComment{}
	for _, c := range list {
		t := c.Target
		mc := ManifestComment{ID: c.ID, Page: placed[t.Page], PageTitle: t.PageTitle, PageEmoji: t.PageEmoji,
			PageIcon: t.PageIcon, PagePath: t.PagePath, BlockKey: t.Node, BlockPreview: t.NodePreview,
			TableRecord: t.TableRecord, TableDefinition: t.TableDefinition, Body: c.Body, Author: c.PostedBy,
			PostedAt: c.PostedAt, EditedAt: c.EditedAt, Status: string(c.Status), ResolvedAt: c.ResolvedAt,
			ResolvedBy: c.ResolvedBy, Reactions: e.reactions(c.Reactions), Replies: []ManifestReply{}}
		if d := docs[t.Page]; d != nil && t.Node != "" {
			mc.Block = blockPath(d.Nodes, t.Node)
		}
		e.note(c.PostedBy, c.ResolvedBy)
		e.note(mentions(c.Body)...)
		replies, err := everyPage(func(p quire.Page) (*quire.List[*quire.CommentReply], error) {
			return st.CommentReplies(ctx, c.ID, p)
		})
		if err != nil {
			return nil, err
		}
		for _, r := range replies {
			e.note(r.PostedBy)
			e.note(mentions(r.Body)...)
			mc.Replies = append(mc.Replies, ManifestReply{ID: r.ID, Body: r.Body, Author: r.PostedBy,
				PostedAt: r.PostedAt, EditedAt: r.EditedAt, Reactions: e.reactions(r.Reactions)})
		}
		out = append(out, mc)
	}
	return out, nil
}

// note records users the manifest must list.
func (e *OrgExport) note(ids ...string) {
	for _, id := range ids {
		if id != "" {
			e.users[id] = true
		}
	}
}

// reactions converts the reactions of a comment or reply.
func (e *OrgExport) reactions(rs []quire.Reaction) []ManifestReaction {
	var out []ManifestReaction
	for _, r := range rs {
		mr := ManifestReaction{Emoji: r.Emoji}
		for _, u := range r.Users {
			e.note(u.UserID)
			mr.Users = append(mr.Users, ManifestReacted{User: u.UserID, At: u.At})
		}
		out = append(out, mr)
	}
	return out
}

// blockPath is where the node with key is under nodes: at each level the
// index among the node's children, then its fragments (counted after
// the children); nil when the key is not there.
func blockPath(nodes []document.Node, key string) []int {
	for i, n := range nodes {
		if n.Key == key {
			return []int{i}
		}
		if rest := blockPath(n.Nodes, key); rest != nil {
			return append([]int{i}, rest...)
		}
		if rest := blockPath(n.Fragments, key); rest != nil {
			rest[0] += len(n.Nodes)
			return append([]int{i}, rest...)
		}
	}
	return nil
}

// blockAt is the node at a path made by blockPath.
func blockAt(nodes []document.Node, at []int) (document.Node, bool) {
	if len(at) == 0 || at[0] < 0 || at[0] >= len(nodes) {
		return document.Node{}, false
	}
	n := nodes[at[0]]
	switch rest := at[1:]; {
	case len(rest) == 0:
		return n, true
	case rest[0] < len(n.Nodes):
		return blockAt(n.Nodes, rest)
	default:
		shifted := append([]int{rest[0] - len(n.Nodes)}, rest[1:]...)
		return blockAt(n.Fragments, shifted)
	}
}
