// Package service holds Quire's rules over the domain stores: who may do
// what, what a move or a transfer means, what bootstrapping creates. HTTP
// handlers and the command line call it; it calls the store.
package service

import (
	"context"
	"log/slog"
	"time"

	"quire/internal/blob"
	"quire/internal/content"
	"quire/internal/fetch"
	"quire/internal/quire"
)

// Service carries out every operation of the API on behalf of a user.
type Service struct {
	store  quire.Store
	now    func() time.Time
	log    *slog.Logger
	engine *content.Engine
	blobs  blob.Store
	// fetch fetches what users point at by URL; fetchBudget bounds the
	// bytes one content write may fetch, all files together.
	fetch       *fetch.Client
	fetchBudget int64
	// downloadKeys caches the key signing download links.
	downloadKeys *downloadKeyCache
	// spaceQueues batches merges and updates of one space in this process.
	spaceQueues *writeQueues
	// batches batches writes that take no lock in this process, by
	// organization (space creates) or by space (comments, activity
	// records).
	batches *writeQueues
	// queue runs background jobs; nil when none is configured.
	queue Queue
	// spaceWatchers hear of committed changes of spaces.
	spaceWatchers []SpaceWatcher
	// sessionLifetime and sessionIdle are how long browser sessions last
	// after their sign-in and without use; zero means the default.
	sessionLifetime time.Duration
	sessionIdle     time.Duration
	// notifyMail says whether notifications are emailed (WithNotificationMail).
	notifyMail bool
	// docs keeps parsed page documents, for reads and edits of big pages.
	docs *parsedDocs
}

// Option configures a Service.
type Option func(*Service)

// WithClock replaces the clock (tests).
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithEngine replaces the content engine (tests: its clock).
func WithEngine(e *content.Engine) Option { return func(s *Service) { s.engine = e } }

// WithBlobs sets where uploaded files are kept.
func WithBlobs(b blob.Store) Option { return func(s *Service) { s.blobs = b } }

// WithFetcher sets the client fetching files given by URL; without it the
// service fetches from public addresses only, with the client's defaults.
func WithFetcher(c *fetch.Client) Option { return func(s *Service) { s.fetch = c } }

// WithFetchBudget replaces MaxFetchedBytesPerWrite, the bytes one content
// write may fetch from URLs, all files together (tests).
func WithFetchBudget(n int64) Option { return func(s *Service) { s.fetchBudget = n } }

// WithLogger sets the logger.
func WithLogger(l *slog.Logger) Option { return func(s *Service) { s.log = l } }

// New returns a Service over store.
func New(store quire.Store, opts ...Option) *Service {
	s := &Service{store: store, now: time.Now, log: slog.Default(), engine: content.New(),
		fetchBudget:  MaxFetchedBytesPerWrite,
		downloadKeys: &downloadKeyCache{},
		spaceQueues:  &writeQueues{begin: lockSpace, retryStale: true},
		batches:      &writeQueues{serialOnly: true},
		docs:         newParsedDocs(parsedDocumentsBytes)}
	for _, o := range opts {
		o(s)
	}
	s.spaceQueues.announce = s.announceContent
	if s.fetch == nil {
		s.fetch = fetch.New(fetch.Config{Logger: s.log})
	}
	return s
}

// Now returns the current time at millisecond precision, in UTC.
func (s *Service) Now() time.Time { return s.now().UTC().Truncate(time.Millisecond) }

// Ready reports whether the service can answer requests.
func (s *Service) Ready(ctx context.Context) error { return s.store.Ping(ctx) }
