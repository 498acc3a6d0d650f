package service

import (
	"context"
	"encoding/json"

	"quire/internal/document"
	"quire/internal/quire"
)

// emptyDocument is the body of a page without content.
func emptyDocument() []byte {
	b, _ := json.Marshal(document.New())
	return b
}

// documentJSON turns a page body given in a change into the stored JSON
// document, and answers the document parsed too. Markdown is converted; a
// JSON document is checked; an edit runs on the page's document. When the
// page had a document before (prev, read only), blocks whose content did
// not change keep their keys, so that later merges can tell edits apart.
// opts configure the Markdown conversion.
func (s *Service) documentJSON(ctx context.Context, field string, in *DocumentInput, prev *document.Document, opts ...document.Option) ([]byte, *document.Document, error) {
	if in.Edit != nil {
		if prev == nil {
			prev = document.New()
		}
		doc, err := in.Edit(prev)
		if err != nil {
			return nil, nil, err
		}
		b, err := doc.MarshalJSON()
		return b, doc, err
	}
	doc, err := documentOf(ctx, field, in, opts...)
	if err != nil {
		return nil, nil, err
	}
	if doc == nil {
		return emptyDocument(), nil, nil
	}
	if prev != nil {
		document.ReuseKeys(prev, doc)
	}
	b, err := doc.MarshalJSON()
	return b, doc, err
}

// documentOf reads a body given as Markdown (converted) or as a JSON
// document (checked); it is nil when the body gives neither. opts
// configure the Markdown conversion. A conversion cut short by the end of
// ctx returns the context's error.
func documentOf(ctx context.Context, field string, in *DocumentInput, opts ...document.Option) (*document.Document, error) {
	switch {
	case in.Markdown != nil:
		doc, err := document.FromMarkdown(*in.Markdown, append([]document.Option{document.WithContext(ctx)}, opts...)...)
		if err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil {
				return nil, ctxErr
			}
			return nil, quire.Invalid(field+".markdown", "%v", err)
		}
		return doc, nil
	case in.JSON != nil:
		doc, err := document.Parse(in.JSON)
		if err != nil {
			return nil, quire.Invalid(field+".document", "%v", err)
		}
		return doc, nil
	}
	return nil, nil
}

// revertBlocks restores the given blocks of cur to their content in then.
func revertBlocks(field string, cur, then []byte, keys []string) ([]byte, error) {
	c, err := document.ParseStored(cur)
	if err != nil {
		return nil, err
	}
	t, err := document.ParseStored(then)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		if !document.RevertBlock(c, t, k) {
			return nil, quire.Invalid(field, "block %q is in neither version of the page", k)
		}
	}
	return json.Marshal(c)
}
