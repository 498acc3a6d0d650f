package service

import (
	"context"
	"strings"
	"unicode/utf8"

	"quire/internal/document"
	"quire/internal/quire"
)

// previewLength is the longest node preview kept, in characters.
const previewLength = 200

// commentTarget checks what a new comment anchors to in the content it
// is posted on and records the page as it is now.
func (s *Service) commentTarget(ctx context.Context, c *Content, in CommentInput) (quire.CommentTarget, error) {
	var t quire.CommentTarget
	if in.Page == "" {
		if in.Node != "" || in.TableCell != nil {
			return t, quire.Invalid("page", "required with node or tableCell")
		}
		return t, nil
	}
	where := "the space's content"
	if c.ChangeRequest != nil {
		where = "the change request's content"
	}
	p, err := c.Page(ctx, in.Page)
	if quire.IsNotFound(err) {
		return t, quire.Invalid("page", "no page %q in %s", in.Page, where)
	} else if err != nil {
		return t, err
	}
	path, err := c.Path(ctx, p)
	if err != nil {
		return t, err
	}
	t = quire.CommentTarget{Page: p.ID, PageTitle: p.Title, PageEmoji: p.Emoji, PageIcon: p.Icon, PagePath: path}
	if in.TableCell != nil && in.Node == "" {
		return t, quire.Invalid("tableCell", "needs node, the key of the table block")
	}
	if in.Node == "" {
		return t, nil
	}
	doc, err := s.pageDocument(ctx, c, p)
	if err != nil {
		return t, err
	}
	block, ok := doc.Block(in.Node)
	if !ok {
		return t, quire.Invalid("node", "no block %q on page %q in %s", in.Node, p.ID, where)
	}
	t.Node, t.NodePreview = in.Node, preview(block)
	if in.TableCell != nil {
		tc := *in.TableCell
		if !document.HasTableCell(block, tc.Record, tc.Definition) {
			return t, quire.Invalid("tableCell", "block %q is not a table with record %q and column %q", in.Node, tc.Record, tc.Definition)
		}
		t.TableRecord, t.TableDefinition = tc.Record, tc.Definition
	}
	return t, nil
}

// pageDocument parses a page's document; a page without one has no
// blocks.
func (s *Service) pageDocument(ctx context.Context, c *Content, p *quire.RevisionPage) (*document.Document, error) {
	return s.docs.page(ctx, c.Snapshot, p)
}

// preview is the start of a block's text, on one line.
func preview(n document.Node) string {
	text := strings.Join(strings.Fields((&document.Document{Nodes: []document.Node{n}}).PlainText()), " ")
	if utf8.RuneCountInString(text) <= previewLength {
		return text
	}
	return string([]rune(text)[:previewLength-1]) + "…"
}
