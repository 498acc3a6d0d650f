package storetest

import (
	"fmt"
	"sync"
	"testing"

	"quire/internal/quire"
)

func sitePublishingAuthTests() []test {
	return []test{
		{"site publishing auth/ensure keeps the first, update, delete with the site", func(t *testing.T, f *fixture) {
			s := f.site(f.org("A"), "Docs")
			_, err := f.st.SitePublishingAuth(ctx(t), s.ID)
			wantCode(t, err, quire.ENOTFOUND)
			first := &quire.SitePublishingAuth{SiteID: s.ID, SealedKey: "sealed-1", Backend: quire.VisitorAuthCustom, UpdatedAt: f.tick()}
			got, err := f.st.EnsureSitePublishingAuth(ctx(t), first)
			must(t, err)
			equal(t, "first", got, first)
			got, err = f.st.EnsureSitePublishingAuth(ctx(t), &quire.SitePublishingAuth{SiteID: s.ID, SealedKey: "sealed-2",
				Backend: quire.VisitorAuthCustom, UpdatedAt: f.tick()})
			must(t, err)
			equal(t, "after a second candidate", got, first)
			_, err = f.st.EnsureSitePublishingAuth(ctx(t), &quire.SitePublishingAuth{SiteID: "nope", SealedKey: "x",
				Backend: quire.VisitorAuthCustom, UpdatedAt: f.tick()})
			wantCode(t, err, quire.ENOTFOUND)

			when := f.tick()
			up, err := f.st.UpdateSitePublishingAuth(ctx(t), s.ID, quire.SitePublishingAuthUpdate{
				SealedKey: ptr("sealed-3"), Backend: ptr(quire.VisitorAuthIntegration), FallbackURL: ptr("https://example.com/login"), UpdatedAt: when})
			must(t, err)
			equal(t, "updated", up, &quire.SitePublishingAuth{SiteID: s.ID, SealedKey: "sealed-3", Backend: quire.VisitorAuthIntegration,
				FallbackURL: "https://example.com/login", UpdatedAt: when})
			up, err = f.st.UpdateSitePublishingAuth(ctx(t), s.ID, quire.SitePublishingAuthUpdate{FallbackURL: ptr(""), UpdatedAt: f.tick()})
			must(t, err)
			equal(t, "cleared", []any{up.FallbackURL, up.SealedKey}, []any{"", "sealed-3"})
			unchanged, err := f.st.UpdateSitePublishingAuth(ctx(t), s.ID, quire.SitePublishingAuthUpdate{UpdatedAt: f.tick()})
			must(t, err)
			equal(t, "nothing to set", unchanged, up)
			_, err = f.st.UpdateSitePublishingAuth(ctx(t), "nope", quire.SitePublishingAuthUpdate{FallbackURL: ptr(""), UpdatedAt: f.tick()})
			wantCode(t, err, quire.ENOTFOUND)

			ok, err := f.st.DeleteSite(ctx(t), s.ID)
			must(t, err)
			equal(t, "site deleted", ok, true)
			_, err = f.st.SitePublishingAuth(ctx(t), s.ID)
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"site publishing auth/racing candidates agree", func(t *testing.T, f *fixture) {
			s := f.site(f.org("A"), "Docs")
			const n = 8
			when := f.tick()
			keys := make([]string, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					var a *quire.SitePublishingAuth
					a, errs[i] = f.st.EnsureSitePublishingAuth(ctx(t), &quire.SitePublishingAuth{SiteID: s.ID,
						SealedKey: fmt.Sprintf("sealed-%d", i), Backend: quire.VisitorAuthCustom, UpdatedAt: when})
					if a != nil {
						keys[i] = a.SealedKey
					}
				}()
			}
			wg.Wait()
			for i := range n {
				must(t, errs[i])
				equal(t, "key of racer", keys[i], keys[0])
			}
		}},
	}
}
