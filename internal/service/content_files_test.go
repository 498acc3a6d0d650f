package service_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync/atomic"
	"testing"

	"quire/internal/blob"
	"quire/internal/fetch"
	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/store"
	"quire/internal/store/storetest"
)

// conflicting is a store whose first compare-and-swap of a change
// request's revision fails, as when another write got there first.
type conflicting struct {
	quire.Store
	left *atomic.Int32
}

// WithTx runs fn with a transaction store that fails the same way.
func (s conflicting) WithTx(ctx context.Context, fn func(quire.Store) error) error {
	return s.Store.WithTx(ctx, func(tx quire.Store) error { return fn(conflicting{tx, s.left}) })
}

// UpdateChangeRequest loses its compare-and-swap (quire.Stale) while
// conflicts are left.
func (s conflicting) UpdateChangeRequest(ctx context.Context, spaceID, id string, upd quire.ChangeRequestUpdate) (*quire.ChangeRequest, error) {
	if upd.IfRevision != nil && s.left.Add(-1) >= 0 {
		return nil, quire.Stale("the change request moved")
	}
	return s.Store.UpdateChangeRequest(ctx, spaceID, id, upd)
}

// fileFixture is a service allowed to fetch from 127.0.0.1, with a user
// and a change request to write to.
type fileFixture struct {
	svc       *service.Service
	user      *quire.User
	space, cr string
	conflicts *atomic.Int32
}

func newFileFixture(t *testing.T) *fileFixture {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, store.Config{DataDir: storetest.MigratedSQLiteDir(t, store.SQLiteFile)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	blobs, err := blob.Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { blobs.Close() })
	quiet := slog.New(slog.DiscardHandler)
	f := &fileFixture{conflicts: &atomic.Int32{}}
	f.svc = service.New(conflicting{st, f.conflicts}, service.WithLogger(quiet), service.WithBlobs(blobs),
		service.WithFetcher(fetch.New(fetch.Config{AllowLocal: true, Logger: quiet})))
	boot, err := f.svc.Bootstrap(ctx, service.BootstrapInput{OrgTitle: "Org", Email: "a@example.com", Name: "A"})
	if err != nil {
		t.Fatal(err)
	}
	if f.user, err = st.User(ctx, boot.User); err != nil {
		t.Fatal(err)
	}
	sp, err := f.svc.CreateSpace(ctx, f.user, boot.Organization, service.SpaceInput{Title: "Files"})
	if err != nil {
		t.Fatal(err)
	}
	f.space = sp.Space.ID
	cr, err := f.svc.CreateChangeRequest(ctx, f.user, f.space, "Files")
	if err != nil {
		t.Fatal(err)
	}
	f.cr = cr.ID
	return f
}

// insert writes one insert_files change fetching each URL.
func (f *fileFixture) insert(t *testing.T, urls ...string) []service.ChangeResult {
	t.Helper()
	ch := service.ContentChange{Operation: service.OpInsertFiles}
	for _, u := range urls {
		ch.Files = append(ch.Files, service.FileInput{Name: "f.bin", URL: u})
	}
	_, res, err := f.svc.UpdateChangeRequestContent(context.Background(), f.user, f.space, f.cr, []service.ContentChange{ch})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestContentWriteRetryDoesNotFetchAgain(t *testing.T) {
	t.Parallel()
	f := newFileFixture(t)
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = io.WriteString(w, "file bytes")
	}))
	defer srv.Close()

	f.conflicts.Store(2)
	res := f.insert(t, srv.URL+"/a", srv.URL+"/b")
	if f.conflicts.Load() >= 0 {
		t.Fatalf("the write did not lose its races (%d left)", f.conflicts.Load())
	}
	if n := hits.Load(); n != 2 {
		t.Errorf("two files fetched %d times over three attempts, want 2", n)
	}
	if len(res) != 1 || len(res[0].Files) != 2 || res[0].Files[0].Size != int64(len("file bytes")) {
		t.Errorf("results: %+v", res)
	}
}

// zeros reads zero bytes forever.
type zeros struct{}

// Read implements io.Reader.
func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestFetchedFileIsStreamed counts the process's allocations, so it runs
// alone, not in parallel with other tests.
func TestFetchedFileIsStreamed(t *testing.T) {
	const size = 16 << 20
	f := newFileFixture(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.CopyN(w, zeros{}, size)
	}))
	defer srv.Close()

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := f.insert(t, srv.URL+"/big")
	runtime.ReadMemStats(&after)
	if got := res[0].Files[0].Size; got != size {
		t.Fatalf("stored %d bytes, want %d", got, size)
	}
	// Holding the file in memory allocates at least its size.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > size/2 {
		t.Errorf("storing a %d-byte file allocated %d bytes", size, alloc)
	}
}
