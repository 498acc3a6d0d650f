package service_test

import (
	"context"
	"testing"

	"quire/internal/service"
)

// TestDuplicateCopiesContent checks that a duplicate starts with the
// source's pages, and that editing one does not touch the other.
func TestDuplicateCopiesContent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := service.NewBootstrapped(t)
	svc := f.Svc
	u := f.Admin
	src, err := svc.CreateSpace(ctx, u, f.Org, service.SpaceInput{Title: "Source"})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.ApplyTemplate(ctx, u, src.Space.ID, "knowledge-base", nil); err != nil {
		t.Fatal(err)
	}
	dup, err := svc.DuplicateSpace(ctx, u, src.Space.ID)
	if err != nil {
		t.Fatal(err)
	}
	pages := func(spaceID string) int {
		c, err := svc.Content(ctx, service.ContentRef{SpaceID: spaceID})
		if err != nil {
			t.Fatal(err)
		}
		ps, err := c.Pages(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return len(ps)
	}
	if n, m := pages(src.Space.ID), pages(dup.Space.ID); n == 0 || n != m {
		t.Fatalf("source has %d pages, duplicate %d", n, m)
	}
	if err := svc.ApplyTemplate(ctx, u, dup.Space.ID, "api-reference", nil); err != nil {
		t.Fatal(err)
	}
	if n, m := pages(src.Space.ID), pages(dup.Space.ID); m <= n {
		t.Fatalf("editing the duplicate: source %d pages, duplicate %d", n, m)
	}
	if dup.Space.Revision == src.Space.Revision {
		t.Fatal("the duplicate shares the source's revision")
	}
}
