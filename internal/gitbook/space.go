package gitbook

import (
	"quire/internal/document"
	"quire/internal/quire"
)

// Files is the content of a project directory: slash-separated paths,
// relative to the directory, mapped to file bytes.
type Files map[string][]byte

// Config is what .gitbook.yaml says about where content lives. Empty
// fields mean the defaults.
type Config struct {
	// Root is the content directory, relative to the project directory,
	// without "./" and without a trailing slash; "" is the project
	// directory itself.
	Root string
	// Readme is the landing page file, relative to Root; "" is README.md.
	Readme string
	// Summary is the table of contents, relative to Root; "" is SUMMARY.md.
	Summary string
	// Source is .gitbook.yaml as read; Write writes it back unchanged
	// while it says what Write would write.
	Source string
	// Absent tells that the repository the space was read from had no
	// .gitbook.yaml: Write leaves it out again while the defaults hold
	// and there is no redirect to write.
	Absent bool
}

// Space is a space's content as a repository describes it.
type Space struct {
	// Config is the content location read from .gitbook.yaml, used again
	// by Write.
	Config Config
	// Pages are the top-level pages and groups, in order.
	Pages []*Page
	// Files are the uploaded files: every file under .gitbook/assets and
	// every other non-Markdown file a page refers to.
	Files []*File
	// Unlisted are the Markdown files under Root that the table of
	// contents does not reach, relative to Root, sorted. Write ignores it.
	Unlisted []string
	// Redirects maps an old URL path of the space (no leading "/", no
	// ".md") to the file, relative to Root, of the page it now leads to.
	Redirects map[string]string
	// Warnings tell what Read skipped or could not resolve, each naming
	// the file it comes from.
	Warnings []string
}

// Page is a page of the tree: a document page, a group, a link or a
// computed page.
type Page struct {
	// ID is the page's id, from IDs.PageID on Read.
	ID string
	// Kind is quire.PageDocument, quire.PageGroup, quire.PageLink or
	// quire.PageComputed.
	Kind string
	// Title is the page title without its emoji.
	Title string
	// Slug is the page's path segment.
	Slug string
	// Description is the front matter's description.
	Description string
	// Emoji is the page emoji as lower-case hex code points joined by
	// "-" (for example "1f44b"); in a file it is the title's first
	// character.
	Emoji string
	// Icon is a Font Awesome icon name, without the "fa-" prefix.
	Icon string
	// Hidden hides the page from the table of contents.
	Hidden bool
	// NoIndex keeps the page out of the site's search.
	NoIndex bool
	// NoRobotsIndex keeps the page out of search engines.
	NoRobotsIndex bool
	// Condition is the front matter's "if": when visitors see the page.
	Condition string
	// Variables are the front matter's "vars".
	Variables map[string]string
	// Layout is the page's display options; nil is the default layout.
	Layout *quire.PageLayout
	// Cover is the page's cover image (front matter cover and coverY);
	// its reference is a file or a URL.
	Cover *quire.PageCover
	// Href is the URL of a link page that points outside the space.
	Href string
	// Target is what a link page points at: a URL, a page, or an anchor
	// of a page.
	Target *quire.ContentRef
	// Computed is the source of a computed page.
	Computed *quire.ComputedSource
	// Document is the body of a document page.
	Document *document.Document
	// Extra holds the front-matter keys this package does not map, and
	// keys whose value had the wrong type, written back as they were
	// read; under "layout", the layout keys and values PageLayout cannot
	// hold (such as cover.mask or tags).
	Extra map[string]any
	// FrontMatter is the YAML of the page file's front matter as read,
	// without its "---" lines. Write writes it back unchanged while it
	// still says what the page holds, and from the page's values
	// otherwise (keeping its unmapped keys when Extra is empty).
	FrontMatter string
	// Listing is how the table of contents lists a document page that
	// has no file: ListedAsText or ListedWithEmptyLink; "" for a page
	// with a file.
	Listing string
	// Path is the page file, relative to the content root (for example
	// "getting-started/README.md"); "" for groups, links and computed
	// pages, or for a page Write should place by its slug.
	Path string
	// Children are the child pages, in order.
	Children []*Page
}

// How the table of contents lists a page without a file.
const (
	// ListedAsText is a list item of plain text: "* Getting started".
	ListedAsText = "text"
	// ListedWithEmptyLink is a list item linking nowhere: "* [Title](<>)".
	ListedWithEmptyLink = "empty-link"
)

// File is an uploaded file.
type File struct {
	// ID is the file's id, from IDs.FileID on Read.
	ID string
	// Name is the file name, for example "image (1).png".
	Name string
	// Path is where the file is, relative to the content root, usually
	// ".gitbook/assets/<Name>"; "" lets Write choose.
	Path string
	// ContentType is the media type guessed from the name and the bytes.
	ContentType string
	// Data is the file's bytes.
	Data []byte
}

// IDs gives ids on Read. Each method returns the id of the existing page
// or file at a key, or a new id; Read asks once per key and expects a
// different id for each. A file's key, and a document page's, is its
// path relative to the content root. A group's is its slug followed by
// "/" (and "#1", "#2"… for later groups of the same slug); a link page's is "link:" and its target as written, then "#" and
// the number of earlier link pages with that target; a computed page's is
// "computed:" and its place among the computed pages, from 1; a page
// listed without a file is "listed:" and its title without its emoji, then "#" and the
// number of earlier such pages with that title.
type IDs interface {
	PageID(key string) string
	FileID(key string) string
}
