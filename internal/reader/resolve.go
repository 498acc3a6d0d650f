package reader

import (
	"net/url"
	"strings"

	"quire/internal/apiref"
	"quire/internal/document"
)

// Target is where a reference leads and what to call it.
type Target struct {
	URL   string
	Title string
}

// OpenAPICard is what an OpenAPI block shows: one operation (Method and
// Path), a set of schemas or a webhook, with a link to the reference.
type OpenAPICard struct {
	Method      string
	Path        string
	Summary     string
	Description string
	URL         string
	// Operation, when set, is the operation's full reference, shown
	// instead of the fields above.
	Operation *apiref.Card
	// Missing, when set, is a note saying the operation could not be
	// found, shown under the method and path.
	Missing string
}

// Resolvers turn the references of a document into addresses. Every
// function is optional; a nil one falls back to the default described on
// each field.
type Resolvers struct {
	// Link resolves links, mentions, buttons, content-refs and card
	// targets. Default: a URL reference's URL, an anchor's "#anchor",
	// nothing for other kinds (the text is shown without a link).
	Link func(ref document.Ref) Target
	// Image resolves image, drawing, cover and inline-image sources.
	// Default: a URL reference's URL; nothing for files.
	Image func(ref document.Ref) string
	// File resolves file blocks to a download address and file name.
	// Default: a URL reference's URL.
	File func(ref document.Ref) Target
	// Path resolves a path of the repository written relative to the
	// page (other-page.md, ../dir/README.md), as raw HTML links name
	// pages, to the page's address; the fragment is not passed. Default,
	// or an empty URL: the address is kept.
	Path func(path string) Target
	// OpenAPI describes an OpenAPI block (swagger, openapi-operation,
	// openapi-schemas, openapi-webhook); nil or a nil answer renders a
	// plain link to the spec.
	OpenAPI func(block document.Node) *OpenAPICard
	// Reusable returns the document of a reusable-content block; nil or a
	// nil answer renders nothing.
	Reusable func(ref document.Ref) *document.Document
	// Condition decides whether an "if" block's expression holds for the
	// reader; nil shows every conditional block.
	Condition func(expression string) bool
}

func (r *Resolvers) link(ref document.Ref) Target {
	if r.Link != nil {
		return r.Link(ref)
	}
	switch ref.Kind {
	case document.RefURL:
		return Target{URL: ref.URL}
	case document.RefAnchor:
		if ref.Page == "" {
			return Target{URL: "#" + ref.Anchor}
		}
	}
	return Target{}
}

func (r *Resolvers) image(ref document.Ref) string {
	if r.Image != nil {
		return r.Image(ref)
	}
	if ref.Kind == document.RefURL {
		return ref.URL
	}
	return ""
}

func (r *Resolvers) file(ref document.Ref) Target {
	if r.File != nil {
		return r.File(ref)
	}
	if ref.Kind == document.RefURL {
		return Target{URL: ref.URL}
	}
	return Target{Title: ref.File}
}

func (r *Resolvers) path(p string) Target {
	if r.Path != nil {
		return r.Path(p)
	}
	return Target{}
}

// SafeURL returns u when it is safe as a link or image address: a
// relative address or one with the http, https, mailto or tel scheme.
// Anything else (javascript:, data:, vbscript:, …) gives "".
func SafeURL(u string) string {
	t := strings.TrimSpace(u)
	if t == "" {
		return ""
	}
	// Browsers drop tabs and newlines inside a scheme; so must the check.
	clean := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, t)
	if !document.HasScheme(clean) {
		if strings.ContainsRune(clean[:strings.IndexAny(clean+"/?#", "/?#")], ':') {
			return ""
		}
		return t
	}
	p, err := url.Parse(clean)
	if err != nil {
		return ""
	}
	switch strings.ToLower(p.Scheme) {
	case "http", "https", "mailto", "tel":
		return clean
	}
	return ""
}
