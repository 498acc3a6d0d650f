package quire

import "context"

// Store is everything the services need from persistence. Implementations
// live in one package per database engine.
type Store interface {
	UserStore
	OrganizationStore
	MemberStore
	TeamStore
	CollectionStore
	SpaceStore
	AccessStore
	ObjectStore
	RevisionStore
	ChangeRequestStore
	CommentStore
	CollectorStore
	DownloadKeyStore
	ServerKeyStore
	GitSyncStore
	GitSyncHistoryStore
	GitRedirectStore
	GitConfigStore
	ContentEventStore
	SearchStore
	SAMLStore
	OIDCStore
	SiteStore
	SitePublishingAuthStore
	ReviewStore
	TranslationStore
	OpenAPIStore
	IntegrationStore
	AccountStore
	NotificationStore
	AuditStore
	RateLimitStore

	// WithTx runs fn inside one transaction; fn's Store sees the
	// transaction's writes. The transaction commits when fn returns nil and
	// rolls back otherwise. Busy and serialization failures are retried.
	// On fn's Store, WithTx runs in a savepoint of that transaction: a
	// failure undoes the nested function's writes alone, and the outer
	// function may go on.
	WithTx(ctx context.Context, fn func(Store) error) error
	// LockSpace, on a Store handed to a WithTx function, waits for and
	// takes the space's write lock, held until the transaction ends: in
	// every process on the database, one transaction at a time holds it.
	// Merges and updates take it so that each computes against the space
	// revision left by the one before. Outside a transaction it is an
	// error.
	LockSpace(ctx context.Context, spaceID string) error
	// SerialWrites reports whether the database runs one write
	// transaction at a time (SQLite's single writer): there, concurrent
	// writes gain by sharing one transaction and its commit. An engine
	// that commits concurrently (PostgreSQL) answers false.
	SerialWrites() bool
	// Ping checks that the database answers.
	Ping(ctx context.Context) error
	// Close releases the database.
	Close() error
}
