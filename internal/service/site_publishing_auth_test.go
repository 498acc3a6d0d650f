package service_test

import (
	"context"
	"testing"

	"quire/internal/quire"
	"quire/internal/secret"
	"quire/internal/service"
	"quire/internal/store"
	"quire/internal/store/storetest"
)

// TestSiteKeySealing checks that a site's private key is read back by
// every replica with the same secret key, that a replica with another
// secret key refuses it rather than answering another key (its reader
// refusing every token of the site), and that
// regenerating gives the site a key that replica can read.
func TestSiteKeySealing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := store.Open(ctx, store.Config{DataDir: storetest.MigratedSQLiteDir(t, store.SQLiteFile)})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	key := secret.NewKey()
	core := service.New(st)
	svc := service.NewSites(core, service.WithSecretKey(key))
	boot, err := core.Bootstrap(ctx, service.BootstrapInput{OrgTitle: "Org", Email: "a@example.com", Name: "A"})
	if err != nil {
		t.Fatal(err)
	}
	org := boot.Organization
	site, err := svc.CreateSite(ctx, &quire.User{ID: boot.User}, org, service.SiteCreate{Title: "Docs"})
	if err != nil {
		t.Fatal(err)
	}
	first, err := svc.SitePublishingAuth(ctx, org, site.ID)
	if err != nil {
		t.Fatal(err)
	}
	again, err := service.NewSites(core, service.WithSecretKey(key)).SitePublishingAuth(ctx, org, site.ID)
	if err != nil || again.PrivateKey != first.PrivateKey {
		t.Fatalf("another replica read %v, %v; want %q", again, err, first.PrivateKey)
	}

	other := service.NewSites(core, service.WithSecretKey(secret.NewKey()))
	if a, err := other.SitePublishingAuth(ctx, org, site.ID); err == nil {
		t.Fatalf("a replica with another secret key read %q", a.PrivateKey)
	}
	// Its reader refuses every token of the site, without failing.
	vis, yes := quire.VisibilityVisitorAuth, true
	if _, err := svc.UpdateSite(ctx, org, site.ID, quire.SiteUpdate{Visibility: &vis, Published: &yes}, nil); err != nil {
		t.Fatal(err)
	}
	token, err := service.SignVisitorToken([]byte(first.PrivateKey), map[string]any{"sub": "reader"})
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*service.Sites{"same key": svc, "other key": other} {
		r, err := service.NewSiteReader(s)
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.Visit(ctx, site.ID, service.Visitor{Token: token})
		if want := map[string]string{"same key": "", "other key": quire.EUNAUTHORIZED}[name]; quire.ErrorCode(err) != want {
			t.Fatalf("%s: visit with the token: %v, want %q", name, err, want)
		}
	}
	next, err := other.RegenerateSitePublishingAuth(ctx, org, site.ID)
	if err != nil {
		t.Fatal(err)
	}
	if next.PrivateKey == first.PrivateKey {
		t.Fatal("regenerating kept the key")
	}
	if _, err := svc.SitePublishingAuth(ctx, org, site.ID); err == nil {
		t.Fatal("the first secret key opens a key sealed under another")
	}
}
