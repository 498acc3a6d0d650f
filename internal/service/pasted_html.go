package service

import (
	"context"

	"quire/internal/document"
	"quire/internal/importer"
	"quire/internal/quire"
)

// MaxPastedHTMLBytes bounds the HTML given to PastedMarkdown: what a
// browser's clipboard holds for a long copied document.
const MaxPastedHTMLBytes = 2 << 20

// PastedMarkdown converts HTML pasted into the editor of a page of the
// space (from a web page or an office document) to the page-body
// Markdown of the dialect: the importer's converter writes Markdown,
// which is read and written back as a page body is, so what the editor
// inserts is what a save would keep.
func (s *Service) PastedMarkdown(ctx context.Context, spaceID string, fragment []byte) (string, error) {
	if len(fragment) > MaxPastedHTMLBytes {
		return "", &quire.Error{Code: quire.ETOOLARGE, Field: "html", Message: "the pasted content is too large to convert"}
	}
	md, err := importer.FragmentMarkdown(ctx, fragment)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return "", ctxErr
		}
		return "", quire.Invalid("html", "could not be read: %v", err)
	}
	doc, err := document.FromMarkdown(md, document.WithContext(ctx), importOptions(spaceID))
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return "", ctxErr
		}
		return "", quire.Invalid("html", "could not be converted: %v", err)
	}
	out, err := document.ToMarkdown(doc)
	if err != nil {
		return "", err
	}
	return out, nil
}
