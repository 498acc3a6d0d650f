package importer

import "quire/internal/quire"

// Source is where imported content comes from (GitBook's
// ImportContentSource).
type Source string

// The sources of the API's enum. Only SourceWebsite, SourceMarkdown,
// SourceHTML and SourceZip are imported; the others are refused.
const (
	SourceWebsite    Source = "website"
	SourceDocx       Source = "docx"
	SourceMarkdown   Source = "markdown"
	SourceHTML       Source = "html"
	SourceZip        Source = "zip"
	SourceConfluence Source = "confluence"
	SourceGitHubWiki Source = "github-wiki"
	SourceNotion     Source = "notion"
	SourceGoogleDocs Source = "google-docs"
)

// Sources lists every value of the enum, in the API's order.
func Sources() []Source {
	return []Source{SourceWebsite, SourceDocx, SourceMarkdown, SourceHTML, SourceZip,
		SourceConfluence, SourceGitHubWiki, SourceNotion, SourceGoogleDocs}
}

// Supported reports whether s is a source this package imports.
func (s Source) Supported() bool {
	switch s {
	case SourceWebsite, SourceMarkdown, SourceHTML, SourceZip:
		return true
	}
	return false
}

// unsupported is the error for a source that is not imported.
func unsupported(s Source) error {
	return quire.Invalid("source", "%q is not supported", string(s))
}
