package quire

import (
	"context"
	"time"
)

// OpenAPIState is where the processing of an OpenAPI specification stands.
type OpenAPIState string

// Processing states: pending until a job takes the source, progress while
// it fetches and parses it, complete once it has finished (with or without
// errors).
const (
	OpenAPIPending  OpenAPIState = "pending"
	OpenAPIProgress OpenAPIState = "progress"
	OpenAPIComplete OpenAPIState = "complete"
)

// OpenAPIErrorCode says why the last processing of a specification failed.
type OpenAPIErrorCode string

// Processing error codes.
const (
	// OpenAPIFetchTimeout: the source URL did not answer in time.
	OpenAPIFetchTimeout OpenAPIErrorCode = "FETCH_TIMEOUT"
	// OpenAPIFetchError: the source URL (or a file it refers to) could not
	// be fetched.
	OpenAPIFetchError OpenAPIErrorCode = "FETCH_ERROR"
	// OpenAPIParseError: what was fetched or given is not a valid OpenAPI
	// document.
	OpenAPIParseError OpenAPIErrorCode = "PARSE_ERROR"
)

// OpenAPIVisibility says who may read a specification's files without a
// token.
type OpenAPIVisibility string

// Visibilities.
const (
	OpenAPIPrivate OpenAPIVisibility = "private"
	OpenAPIPublic  OpenAPIVisibility = "public"
)

// OpenAPIProblem is one problem the last processing found: a message a
// person can act on, a short code, and where it is when it is in a file.
type OpenAPIProblem struct {
	Message string `json:"message"`
	Code    string `json:"code,omitempty"`
	// File is the path of the file in the specification's filesystem,
	// Line its line (1-based, 0 when unknown), Pointer the JSON pointer of
	// the node at fault.
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Pointer string `json:"pointer,omitempty"`
}

// OpenAPISpec is an OpenAPI specification of an organization, known by a
// slug unique in it. Its source is a URL, fetched again on a schedule, or
// a text given once.
type OpenAPISpec struct {
	ID    string
	OrgID string
	Slug  string
	// SourceURL is the URL of the main file; "" for a text source.
	SourceURL string
	// SourceText is the text of a text source.
	SourceText string
	Visibility OpenAPIVisibility
	State      OpenAPIState
	// Generation counts the changes of the source: a processing job
	// records its outcome only while it is still the generation it was
	// queued for.
	Generation int64
	// LastVersion is the id of the newest version, "" before the first.
	LastVersion     string
	LastProcessedAt *time.Time
	// ErrorCode and Errors describe the last processing when it failed;
	// the last good version stays.
	ErrorCode OpenAPIErrorCode
	Errors    []OpenAPIProblem
	// ETag and LastModified are the validators of the last answer of the
	// source URL, sent back so an unchanged file is not sent again.
	ETag, LastModified string
	// CheckedAt is when the source URL was last fetched (or tried).
	CheckedAt time.Time
	CreatedAt time.Time
	UpdatedAt time.Time
}

// OpenAPIVersion is one processed state of a specification: every file of
// it, keyed by path, the main file among them.
type OpenAPIVersion struct {
	ID     string
	SpecID string
	// Hash identifies the normalized files: equal hashes, same content.
	Hash      string
	Main      string
	Files     map[string]string
	CreatedAt time.Time
}

// OpenAPIStore keeps OpenAPI specifications and their versions.
type OpenAPIStore interface {
	// CreateOpenAPISpec stores a new specification; ECONFLICT when its
	// slug is taken in the organization.
	CreateOpenAPISpec(ctx context.Context, s *OpenAPISpec) error
	// OpenAPISpec returns a specification by slug; ENOTFOUND.
	OpenAPISpec(ctx context.Context, orgID, slug string) (*OpenAPISpec, error)
	// OpenAPISpecsBySlug returns the specifications of an organization
	// named by slugs, keyed by slug; slugs with none are absent.
	OpenAPISpecsBySlug(ctx context.Context, orgID string, slugs []string) (map[string]*OpenAPISpec, error)
	// OpenAPISpecByID returns a specification by id; ENOTFOUND.
	OpenAPISpecByID(ctx context.Context, id string) (*OpenAPISpec, error)
	// OpenAPISpecs lists an organization's specifications, oldest first.
	OpenAPISpecs(ctx context.Context, orgID string, p Page) (*List[*OpenAPISpec], error)
	// UpdateOpenAPISpec writes every field of s but its id, organization,
	// slug and creation time, when the stored generation is ifGeneration
	// (any when negative); it reports whether it wrote. ENOTFOUND when the
	// specification is gone.
	UpdateOpenAPISpec(ctx context.Context, s *OpenAPISpec, ifGeneration int64) (bool, error)
	// DeleteOpenAPISpec deletes a specification and its versions and
	// reports whether it existed.
	DeleteOpenAPISpec(ctx context.Context, orgID, slug string) (bool, error)
	// AddOpenAPIVersion stores a version.
	AddOpenAPIVersion(ctx context.Context, v *OpenAPIVersion) error
	// OpenAPIVersion returns a version of a specification; ENOTFOUND.
	OpenAPIVersion(ctx context.Context, specID, id string) (*OpenAPIVersion, error)
	// OpenAPIVersions lists a specification's versions, newest first,
	// without their files.
	OpenAPIVersions(ctx context.Context, specID string, p Page) (*List[*OpenAPIVersion], error)
	// OpenAPISpecsDue lists up to limit specifications with a source URL
	// last checked before the given time, and those whose processing has
	// not completed since a change before it, least recently checked
	// first.
	OpenAPISpecsDue(ctx context.Context, before time.Time, limit int) ([]*OpenAPISpec, error)
}
