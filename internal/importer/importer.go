package importer

import (
	"context"
	"log/slog"
	"net/url"

	"quire/internal/fetch"
	"quire/internal/quire"
)

// Defaults of Options left zero.
const (
	// DefaultMaxPages is how many pages one website import keeps.
	DefaultMaxPages = 500
	// DefaultMaxBytes bounds the bytes one import fetches and unpacks.
	DefaultMaxBytes = 64 << 20
	// DefaultMaxZipFiles bounds the entries of an imported zip.
	DefaultMaxZipFiles = 2000
	// DefaultMaxZipRatio bounds how much larger than its compressed size
	// an entry of an imported zip may be.
	DefaultMaxZipRatio = 100
	// DefaultUserAgent is the name matched against robots.txt groups.
	DefaultUserAgent = "Quire"
)

// Options configures an Importer. The zero value takes the defaults.
type Options struct {
	// MaxPages is how many pages a website import keeps; the crawl stops
	// there. Any import makes at most 4*MaxPages+16 fetches, pages and
	// images together.
	MaxPages int
	// MaxBytes bounds the bytes one import fetches (pages, images, the
	// zip) and unpacks from a zip, all added up.
	MaxBytes int64
	// MaxZipFiles bounds the entries of a zip; a larger zip is refused.
	MaxZipFiles int
	// MaxZipRatio bounds an entry's uncompressed size over its compressed
	// size (for entries over 1 MiB); a zip with a larger ratio is refused.
	MaxZipRatio int
	// UserAgent is the product token matched against robots.txt groups.
	UserAgent string
	// Logger receives, at debug level, what a crawl skipped and why.
	Logger *slog.Logger
}

// Importer imports sources. It is safe for concurrent use.
type Importer struct {
	client *fetch.Client
	opts   Options
}

// Result is what one import produced.
type Result struct {
	// Files is the repository: pages, assets and an optional SUMMARY.md.
	Files Files
	// Total is how many resources (pages, images, archive entries) the
	// import looked at.
	Total int
	// Imported is how many of them became pages or assets in Files.
	Imported int
}

// New returns an Importer fetching through client under opts.
func New(client *fetch.Client, opts Options) *Importer {
	if opts.MaxPages <= 0 {
		opts.MaxPages = DefaultMaxPages
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.MaxZipFiles <= 0 {
		opts.MaxZipFiles = DefaultMaxZipFiles
	}
	if opts.MaxZipRatio <= 0 {
		opts.MaxZipRatio = DefaultMaxZipRatio
	}
	if opts.UserAgent == "" {
		opts.UserAgent = DefaultUserAgent
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Importer{client: client, opts: opts}
}

// Import imports rawURL as source. Errors caused by the input (a source
// that is not supported, a URL that is not http(s), cannot be fetched or
// holds nothing importable, a broken or hostile zip) are quire.Invalid
// errors on the field "source" or "url"; an ended ctx returns its error.
func (im *Importer) Import(ctx context.Context, source Source, rawURL string) (*Result, error) {
	if !source.Supported() {
		return nil, unsupported(source)
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, quire.Invalid("url", "must be an absolute http or https URL")
	}
	r := im.newRun()
	switch source {
	case SourceWebsite:
		err = r.website(ctx, u)
	case SourceMarkdown:
		err = r.markdownFile(ctx, u)
	case SourceHTML:
		err = r.htmlFile(ctx, u)
	case SourceZip:
		err = r.zipFile(ctx, u)
	}
	if err != nil {
		return nil, err
	}
	return &Result{Files: r.files, Total: r.total, Imported: r.imported}, nil
}
