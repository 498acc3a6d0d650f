// Package pdf sets a space's pages as one PDF document: a title page with
// a table of contents, then every page in tree order with its headings,
// paragraphs, lists, code, tables, hints, images and links. Text is set in
// embedded TrueType subsets with Unicode maps, so it can be searched and
// copied; characters the Latin faces lack are set in the CJK face.
package pdf

import (
	"context"
	"io"

	"quire/internal/document"
)

// Book is what Render sets: a title, an optional subtitle and the pages
// in tree order.
type Book struct {
	Title    string
	Subtitle string
	Pages    []Page
	// Operations resolves the operations of OpenAPI specifications that
	// openapi-operation blocks show as reference cards; nil shows none.
	Operations OperationResolver
	// FileID resolves a path of the repository that raw HTML names
	// (.gitbook/assets/x.png, as written in the page) to the id of the
	// space's file; nil, or "" for a path, leaves such images out.
	FileID func(path string) string
}

// Page is one page of a book.
type Page struct {
	// ID is the page's id; links to it within the book jump to it.
	ID          string
	Title       string
	Emoji       string
	Description string
	// Depth is the page's depth in the tree, 0 for a top-level page.
	Depth int
	// Body is the page's document; nil for a group.
	Body *document.Document
	// Href is the target of a link page.
	Href string
}

// FileOpener opens a file of the space by its id, returning its content
// type and bytes. Files it cannot open are left out of the rendering.
type FileOpener func(ctx context.Context, id string) (contentType string, r io.ReadCloser, err error)
