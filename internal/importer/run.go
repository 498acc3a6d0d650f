package importer

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/url"
	"strconv"
	"strings"

	"quire/internal/fetch"
	"quire/internal/quire"
)

// run is the state of one import.
type run struct {
	im  *Importer
	log *slog.Logger
	// field is what the input errors of the import name: "url", or
	// "file" for an uploaded file.
	field    string
	left     int64 // bytes that may still be fetched or unpacked
	requests int   // fetches that may still be made
	files    Files
	assets   *assetNames
	fetched  map[string]string // image URL key -> asset path, "" when it failed
	total    int
	imported int
}

func (im *Importer) newRun() *run {
	return &run{
		im:       im,
		log:      im.opts.Logger,
		field:    "url",
		left:     im.opts.MaxBytes,
		requests: 4*im.opts.MaxPages + 16,
		files:    Files{},
		assets:   newAssetNames(),
		fetched:  map[string]string{},
	}
}

// Reasons a fetch gave nothing, besides a *fetch.Error.
var (
	// errBudget: the import's byte cap, or its cap on fetches, is spent.
	errBudget = errors.New("the import's size cap is reached")
	// errKind: the answer is not of the kind wanted (not HTML, not an
	// image).
	errKind = errors.New("not of the kind wanted")
)

// download is one fetched body.
type download struct {
	body        []byte
	contentType string // media type, lower case, no parameters
}

// get fetches u and reads its body within the import's byte cap. want, if
// not nil, decides from the declared media type (and the URL) whether the
// body is worth reading; if not, get returns errKind without reading it.
func (r *run) get(ctx context.Context, u *url.URL, want func(mediaType string, u *url.URL) bool) (*download, error) {
	if r.left <= 0 || r.requests <= 0 {
		return nil, errBudget
	}
	r.requests--
	resp, err := r.im.client.Get(ctx, u.String())
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	mt, _, _ := mime.ParseMediaType(resp.ContentType)
	mt = strings.ToLower(mt)
	if want != nil && !want(mt, u) {
		return nil, errKind
	}
	if resp.Size > r.left {
		return nil, errBudget
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, r.left+1))
	if err != nil {
		return nil, err
	}
	if int64(len(body)) > r.left {
		r.left = 0
		return nil, errBudget
	}
	r.left -= int64(len(body))
	return &download{body: body, contentType: mt}, nil
}

// urlError turns the failure to fetch the URL the user gave into the error
// shown to them: a 400 on "url" naming the URL without its user
// information. An ended context passes through.
func (r *run) urlError(ctx context.Context, u *url.URL, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	shown := redact(u)
	var fe *fetch.Error
	var tl *fetch.TooLargeError
	switch {
	case errors.As(err, &fe) && fe.Status != "":
		return quire.Invalid("url", "could not fetch %s: the server answered %s", shown, fe.Status)
	case errors.As(err, &tl):
		return quire.Invalid("url", "%s is larger than %d bytes", shown, tl.Max)
	case errors.Is(err, errBudget):
		return quire.Invalid("url", "%s is larger than the import's limit of %d bytes", shown, r.im.opts.MaxBytes)
	case errors.Is(err, errKind):
		return quire.Invalid("url", "%s is not of a type this source imports", shown)
	}
	return quire.Invalid("url", "could not fetch %s", shown)
}

// statusOf is the HTTP status code of a failed fetch, or 0 when the server
// did not answer.
func statusOf(err error) int {
	var fe *fetch.Error
	if !errors.As(err, &fe) || fe.Status == "" {
		return 0
	}
	code, _, _ := strings.Cut(fe.Status, " ")
	n, _ := strconv.Atoi(code)
	return n
}

// redact is u without user information, for messages.
func redact(u *url.URL) string {
	c := *u
	c.User = nil
	return c.String()
}

// skip logs why a resource was left out.
func (r *run) skip(ctx context.Context, u *url.URL, why any) {
	r.log.DebugContext(ctx, "import skipped a resource", "url", redact(u), "reason", why)
}

// readAtMost reads up to n bytes of r and drops the rest.
func readAtMost(r io.Reader, n int64) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r, n))
}
