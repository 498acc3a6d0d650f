package service_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sync/atomic"
	"testing"
	"time"

	"quire/internal/content"
	"quire/internal/quire"
	"quire/internal/service"
)

// TestCollectGarbageAfterPurge checks the collection of unreferenced
// objects: nothing of a deleted space goes before it is purged, nor an
// object just written; once a space is purged, the objects only it
// reached go, while those it shared with a duplicate stay and the
// duplicate still reads whole from the database; and while another
// replica holds the lease, a collection does nothing.
func TestCollectGarbageAfterPurge(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var offset atomic.Int64
	now := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	f := service.NewBootstrapped(t, service.WithClock(now), service.WithEngine(content.New(content.WithClock(now))))
	st, svc := f.Store, f.Svc
	u := f.Admin
	space := func(title, template string) string {
		v, err := svc.CreateSpace(ctx, u, f.Org, service.SpaceInput{Title: title})
		if err != nil {
			t.Fatal(err)
		}
		if err := svc.ApplyTemplate(ctx, u, v.Space.ID, template, nil); err != nil {
			t.Fatal(err)
		}
		return v.Space.ID
	}
	a, b := space("A", "knowledge-base"), space("B", "api-reference")
	dup, err := svc.DuplicateSpace(ctx, u, a)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := svc.Content(ctx, service.ContentRef{SpaceID: b})
	if err != nil {
		t.Fatal(err)
	}
	ofB, err := content.Live(ctx, st, quire.ContentRoots{Pages: []string{cb.Rev.Pages}, Slugs: []string{cb.Rev.Slugs}, Files: []string{cb.Rev.Files}})
	if err != nil {
		t.Fatal(err)
	}
	// An object of an edit that has not stored its revision yet.
	sum := sha256.Sum256([]byte("in flight"))
	pending := hex.EncodeToString(sum[:])
	if err := st.PutObjects(ctx, map[string][]byte{pending: []byte("in flight")}); err != nil {
		t.Fatal(err)
	}
	exists := func(key string) bool {
		got, err := st.Objects(ctx, []string{key})
		if err != nil {
			t.Fatal(err)
		}
		_, ok := got[key]
		return ok
	}
	collect := func() int {
		t.Helper()
		n, err := svc.CollectGarbage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}

	for _, id := range []string{a, b} {
		if _, err := svc.DeleteSpace(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	if n := collect(); n != 0 || !exists(pending) {
		t.Fatalf("before any purge: %d objects went (the fresh one still there: %v), want none", n, exists(pending))
	}

	offset.Store(int64(quire.RestoreWindow + time.Hour))
	if n, err := svc.PurgeDeletedSpaces(ctx); err != nil || n != 2 {
		t.Fatalf("purge: %d %v, want 2", n, err)
	}
	if ok, err := st.AcquireLease(ctx, service.CollectLease, "another replica", now(), time.Hour); err != nil || !ok {
		t.Fatalf("take the lease: %v %v", ok, err)
	}
	if n := collect(); n != 0 || !exists(pending) {
		t.Fatalf("while another replica holds the lease: %d objects went", n)
	}
	if err := st.ReleaseLease(ctx, service.CollectLease, "another replica"); err != nil {
		t.Fatal(err)
	}

	n := collect()
	roots, err := st.ContentRoots(ctx)
	if err != nil {
		t.Fatal(err)
	}
	remaining, err := content.Live(ctx, st, roots)
	if err != nil {
		t.Fatal(err)
	}
	gone := 0
	for k := range ofB {
		_, live := remaining[k]
		if exists(k) != live {
			t.Fatalf("object %s of the purged space: stored %v, still reached %v", k, exists(k), live)
		}
		if !live {
			gone++
		}
	}
	if gone == 0 || exists(pending) || n != gone+1 {
		t.Fatalf("collected %d objects; want the %d only the purged space reached and the stale one (still there: %v)", n, gone, exists(pending))
	}
	if n := collect(); n != 0 {
		t.Fatalf("a second collection took %d more", n)
	}

	// The duplicate of a purged space, sharing its objects, reads whole
	// on an engine with an empty cache.
	fresh := service.New(st)
	c, err := fresh.Content(ctx, service.ContentRef{SpaceID: dup.Space.ID})
	if err != nil {
		t.Fatal(err)
	}
	pages, err := c.Pages(ctx)
	if err != nil || len(pages) == 0 {
		t.Fatalf("pages of the duplicate: %d %v", len(pages), err)
	}
	for _, p := range pages {
		if _, err := c.Document(ctx, p); err != nil {
			t.Fatalf("document of %s: %v", p.Title, err)
		}
	}
}
