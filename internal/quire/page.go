package quire

import "time"

// Page types.
const (
	PageDocument = "document"
	PageGroup    = "group"
	PageLink     = "link"
	PageComputed = "computed"
)

// RevisionPage is one page of a revision's tree. Its place in the tree is its
// Parent ("" at the top) and its Position among its siblings; its path is
// derived from the slugs of its ancestors, and its children are indexed by
// slug in the map rooted at Children, which keeps slugs unique among
// siblings. The body of a document page is a separate object, Document
// (its hash, "" when empty).
type RevisionPage struct {
	ID            string            `json:"id"`
	Type          string            `json:"type"`
	Title         string            `json:"title"`
	Emoji         string            `json:"emoji,omitempty"`
	Icon          string            `json:"icon,omitempty"`
	Slug          string            `json:"slug,omitempty"`
	Description   string            `json:"description,omitempty"`
	Parent        string            `json:"parent,omitempty"`
	Position      string            `json:"position"`
	Document      string            `json:"document,omitempty"`
	Children      string            `json:"children,omitempty"` // root of the children map: slug → page id
	Layout        *PageLayout       `json:"layout,omitempty"`
	Cover         *PageCover        `json:"cover,omitempty"`
	Variables     map[string]string `json:"variables,omitempty"`
	Hidden        bool              `json:"hidden,omitempty"`
	NoIndex       bool              `json:"noIndex,omitempty"`
	NoRobotsIndex bool              `json:"noRobotsIndex,omitempty"`
	Condition     string            `json:"condition,omitempty"`
	Target        *ContentRef       `json:"target,omitempty"` // link pages
	Href          string            `json:"href,omitempty"`   // link pages
	Computed      *ComputedSource   `json:"computed,omitempty"`
	ComputedSeed  string            `json:"computedSeed,omitempty"`
	Git           *GitBlob          `json:"git,omitempty"`
	// GitFrontMatter is the front matter of the page's file as a Git
	// import read it, written back by an export while it still says
	// what the page holds.
	GitFrontMatter string `json:"gitFrontMatter,omitempty"`
	// GitListing tells how a repository's table of contents lists a page
	// that has no file: "text" (a list item without a link) or
	// "empty-link"; "" for the others.
	GitListing string    `json:"gitListing,omitempty"`
	CreatedAt  time.Time `json:"createdAt"`
	UpdatedAt  time.Time `json:"updatedAt"`
}

// PageLayout is the display options of a document page.
type PageLayout struct {
	Width           string `json:"width,omitempty"` // default or wide
	Cover           bool   `json:"cover"`
	CoverSize       string `json:"coverSize,omitempty"` // hero or full
	Title           bool   `json:"title"`
	Description     bool   `json:"description"`
	TableOfContents bool   `json:"tableOfContents"`
	Outline         bool   `json:"outline"`
	Pagination      bool   `json:"pagination"`
	Metadata        bool   `json:"metadata"`
}

// DefaultPageLayout is the layout of a new document page.
func DefaultPageLayout() PageLayout {
	return PageLayout{Width: "default", Cover: true, CoverSize: "hero", Title: true, Description: true,
		TableOfContents: true, Outline: true, Pagination: true, Metadata: true}
}

// PageCover is the cover image of a document page.
type PageCover struct {
	Ref     *ContentRef `json:"ref,omitempty"`
	RefDark *ContentRef `json:"refDark,omitempty"`
	YPos    float64     `json:"yPos"`
}

// ComputedSource generates a page's content.
type ComputedSource struct {
	Type         string         `json:"type"`
	Dependencies map[string]any `json:"dependencies,omitempty"`
	Props        map[string]any `json:"props,omitempty"`
}

// File is an uploaded file of a revision; its bytes are the blob Blob.
type File struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	ContentType string    `json:"contentType"`
	Size        int64     `json:"size"`
	Blob        string    `json:"blob"`
	Width       int       `json:"width,omitempty"`
	Height      int       `json:"height,omitempty"`
	Git         *GitBlob  `json:"git,omitempty"`
	CreatedAt   time.Time `json:"createdAt"`
}
