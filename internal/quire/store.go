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

	// WithTx runs fn inside one transaction; fn's Store sees the
	// transaction's writes. The transaction commits when fn returns nil and
	// rolls back otherwise. Busy and serialization failures are retried.
	WithTx(ctx context.Context, fn func(Store) error) error
	// Ping checks that the database answers.
	Ping(ctx context.Context) error
	// Close releases the database.
	Close() error
}
