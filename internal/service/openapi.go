package service

import (
	"context"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"quire/internal/fetch"
	"quire/internal/quire"
)

// Defaults of OpenAPIOptions left zero.
const (
	// DefaultOpenAPIFetchTimeout bounds the fetch of a specification's
	// files, all of them together.
	DefaultOpenAPIFetchTimeout = 20 * time.Second
	// DefaultOpenAPIRefreshInterval is how often a specification given by
	// URL is fetched again.
	DefaultOpenAPIRefreshInterval = time.Hour
)

// OpenAPIOptions configures the OpenAPI specifications service.
type OpenAPIOptions struct {
	// FetchTimeout bounds the fetch of a specification's files, all of
	// them together; past it the processing fails with FETCH_TIMEOUT.
	FetchTimeout time.Duration
	// RefreshInterval is how often specifications given by URL are
	// fetched again.
	RefreshInterval time.Duration
}

// OpenAPISpecs keeps the OpenAPI specifications of organizations: their
// sources, and the versions a background job makes of them by fetching
// (through the guarded client) and parsing their files.
type OpenAPISpecs struct {
	s     *Service
	fetch *fetch.Client
	opts  OpenAPIOptions
	log   *slog.Logger
}

// NewOpenAPISpecs returns the OpenAPI specifications service of s,
// fetching through fetcher and running its jobs on the service's queue.
func NewOpenAPISpecs(s *Service, fetcher *fetch.Client, opts OpenAPIOptions) *OpenAPISpecs {
	if opts.FetchTimeout <= 0 {
		opts.FetchTimeout = DefaultOpenAPIFetchTimeout
	}
	if opts.RefreshInterval <= 0 {
		opts.RefreshInterval = DefaultOpenAPIRefreshInterval
	}
	return &OpenAPISpecs{s: s, fetch: fetcher, opts: opts, log: s.log}
}

// RefreshInterval is how often specifications given by URL are fetched
// again.
func (o *OpenAPISpecs) RefreshInterval() time.Duration { return o.opts.RefreshInterval }

// OpenAPISource is where a specification comes from: a URL or a text.
// Exactly one is set.
type OpenAPISource struct {
	URL  string
	Text string
}

// check checks the source.
func (src OpenAPISource) check() error {
	switch {
	case src.URL != "" && src.Text != "":
		return quire.Invalid("source", "give either url or text, not both")
	case src.URL == "" && src.Text == "":
		return quire.Invalid("source", "give url or text")
	case src.URL != "":
		u, err := url.Parse(src.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return quire.Invalid("source.url", "must be an http or https URL")
		}
	case strings.TrimSpace(src.Text) == "":
		return quire.Invalid("source.text", "must not be blank")
	}
	return nil
}

// OpenAPIJob processes one generation of a specification's source.
type OpenAPIJob struct {
	Spec       string `json:"spec"`
	Generation int64  `json:"generation"`
}

// Kind implements quire.JobArgs.
func (OpenAPIJob) Kind() string { return "openapi_process" }

// openAPIJobAttempts is how many times a processing job is tried when the
// database fails; fetch and parse failures are outcomes, not retried.
const openAPIJobAttempts = 5

// List lists an organization's specifications, oldest first.
func (o *OpenAPISpecs) List(ctx context.Context, orgID string, p quire.Page) (*quire.List[*quire.OpenAPISpec], error) {
	return o.s.store.OpenAPISpecs(ctx, orgID, p)
}

// Get returns a specification by slug.
func (o *OpenAPISpecs) Get(ctx context.Context, orgID, slug string) (*quire.OpenAPISpec, error) {
	return o.s.store.OpenAPISpec(ctx, orgID, slug)
}

// Create creates a specification and queues its processing, in one
// transaction; a slug taken in the organization is ECONFLICT.
func (o *OpenAPISpecs) Create(ctx context.Context, orgID, slug string, src OpenAPISource) (*quire.OpenAPISpec, error) {
	if err := src.check(); err != nil {
		return nil, err
	}
	now := o.s.Now()
	spec := &quire.OpenAPISpec{ID: quire.NewID(), OrgID: orgID, Slug: slug, SourceURL: src.URL, SourceText: src.Text,
		Visibility: quire.OpenAPIPrivate, State: quire.OpenAPIPending, Generation: 1, CreatedAt: now, UpdatedAt: now}
	err := o.s.store.WithTx(ctx, func(st quire.Store) error {
		if err := st.CreateOpenAPISpec(ctx, spec); err != nil {
			return err
		}
		return o.queue(ctx, st, spec)
	})
	if err != nil {
		return nil, err
	}
	return spec, nil
}

// Put creates the specification of slug, or gives an existing one a new
// source, and queues its processing; created reports which.
func (o *OpenAPISpecs) Put(ctx context.Context, orgID, slug string, src OpenAPISource) (spec *quire.OpenAPISpec, created bool, err error) {
	if err := src.check(); err != nil {
		return nil, false, err
	}
	for attempt := 0; attempt < 3; attempt++ {
		spec, err = o.s.store.OpenAPISpec(ctx, orgID, slug)
		if quire.IsNotFound(err) {
			spec, err = o.Create(ctx, orgID, slug, src)
			if quire.ErrorCode(err) == quire.ECONFLICT {
				continue // created meanwhile: update it
			}
			return spec, err == nil, err
		}
		if err != nil {
			return nil, false, err
		}
		spec, err = o.update(ctx, spec, nil, &src)
		return spec, false, err
	}
	return nil, false, err
}

// Update changes a specification's visibility and, when src is given, its
// source; a new source is processed again.
func (o *OpenAPISpecs) Update(ctx context.Context, orgID, slug string, visibility *quire.OpenAPIVisibility, src *OpenAPISource) (*quire.OpenAPISpec, error) {
	if src != nil {
		if err := src.check(); err != nil {
			return nil, err
		}
	}
	spec, err := o.s.store.OpenAPISpec(ctx, orgID, slug)
	if err != nil {
		return nil, err
	}
	return o.update(ctx, spec, visibility, src)
}

// update writes a change of spec, retrying when its processing recorded
// an outcome meanwhile, and queues a new source's processing in the same
// transaction.
func (o *OpenAPISpecs) update(ctx context.Context, spec *quire.OpenAPISpec, visibility *quire.OpenAPIVisibility, src *OpenAPISource) (*quire.OpenAPISpec, error) {
	for {
		gen := spec.Generation
		if visibility != nil {
			spec.Visibility = *visibility
		}
		if src != nil {
			spec.SourceURL, spec.SourceText = src.URL, src.Text
			spec.State, spec.Generation = quire.OpenAPIPending, gen+1
			spec.ETag, spec.LastModified = "", ""
		}
		spec.UpdatedAt = o.s.Now()
		var ok bool
		err := o.s.store.WithTx(ctx, func(st quire.Store) error {
			var err error
			if ok, err = st.UpdateOpenAPISpec(ctx, spec, gen); err != nil || !ok || src == nil {
				return err
			}
			return o.queue(ctx, st, spec)
		})
		if err != nil {
			return nil, err
		}
		if ok {
			return spec, nil
		}
		if spec, err = o.s.store.OpenAPISpecByID(ctx, spec.ID); err != nil {
			return nil, err
		}
	}
}

// Delete deletes a specification and its versions; it reports whether
// there was one.
func (o *OpenAPISpecs) Delete(ctx context.Context, orgID, slug string) (bool, error) {
	return o.s.store.DeleteOpenAPISpec(ctx, orgID, slug)
}

// Versions lists a specification's versions, newest first.
func (o *OpenAPISpecs) Versions(ctx context.Context, orgID, slug string, p quire.Page) (*quire.OpenAPISpec, *quire.List[*quire.OpenAPIVersion], error) {
	spec, err := o.s.store.OpenAPISpec(ctx, orgID, slug)
	if err != nil {
		return nil, nil, err
	}
	l, err := o.s.store.OpenAPIVersions(ctx, spec.ID, p)
	return spec, l, err
}

// LatestVersionID names the newest version in Version.
const LatestVersionID = "latest"

// Version returns a version of a specification with its files; the id
// LatestVersionID names the newest.
func (o *OpenAPISpecs) Version(ctx context.Context, orgID, slug, id string) (*quire.OpenAPISpec, *quire.OpenAPIVersion, error) {
	spec, err := o.s.store.OpenAPISpec(ctx, orgID, slug)
	if err != nil {
		return nil, nil, err
	}
	v, err := o.version(ctx, spec, id)
	return spec, v, err
}

// version returns a version of spec, LatestVersionID for the newest.
func (o *OpenAPISpecs) version(ctx context.Context, spec *quire.OpenAPISpec, id string) (*quire.OpenAPIVersion, error) {
	if id == LatestVersionID {
		if spec.LastVersion == "" {
			return nil, quire.NotFound("OpenAPI specification version")
		}
		id = spec.LastVersion
	}
	return o.s.store.OpenAPIVersion(ctx, spec.ID, id)
}

// queue queues the processing of the specification's current
// generation in the transaction of st, which writes the generation. A job
// queued twice does no harm: the second finds the source unchanged.
// (River's unique jobs are not used: on SQLite a unique job stays unique
// after it completed, until River cleans it away.)
func (o *OpenAPISpecs) queue(ctx context.Context, st quire.Store, spec *quire.OpenAPISpec) error {
	_, err := o.s.enqueueTx(ctx, st, OpenAPIJob{Spec: spec.ID, Generation: spec.Generation},
		quire.JobOptions{MaxAttempts: openAPIJobAttempts})
	return err
}
