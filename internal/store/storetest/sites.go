package storetest

import (
	"slices"
	"testing"

	"quire/internal/quire"
)

// site creates a site of o.
func (f *fixture) site(o *quire.Organization, title string) *quire.Site {
	f.t.Helper()
	now := f.tick()
	s := &quire.Site{ID: quire.NewID(), OrgID: o.ID, Type: quire.SiteBasic, Title: title, Visibility: quire.VisibilityPublic,
		AgentsContext: quire.AgentsIncluded, CreatedAt: now, UpdatedAt: now}
	must(f.t, f.st.CreateSite(ctx(f.t), s))
	return s
}

// section creates a section of a site in a group ("" for the root).
func (f *fixture) section(s *quire.Site, group, path, position string) *quire.SiteSection {
	f.t.Helper()
	sec := &quire.SiteSection{ID: quire.NewID(), SiteID: s.ID, Group: group, Title: "Section " + path, Path: path,
		Position: position, CreatedAt: f.tick()}
	must(f.t, f.st.CreateSiteSection(ctx(f.t), sec))
	return sec
}

// siteSpace publishes a space in a section of a site ("" for the root).
func (f *fixture) siteSpace(s *quire.Site, section string, sp *quire.Space, path, position string) *quire.SiteSpace {
	f.t.Helper()
	ss := &quire.SiteSpace{ID: quire.NewID(), SiteID: s.ID, Section: section, SpaceID: sp.ID, Path: path,
		Position: position, CreatedAt: f.tick()}
	must(f.t, f.st.CreateSiteSpace(ctx(f.t), ss))
	return ss
}

// treeIDs lists the ids of a site's tree, kind by kind, in order.
func treeIDs(t *testing.T, f *fixture, siteID string) (groups, sections, siteSpaces []string) {
	t.Helper()
	tree, err := f.st.SiteTree(ctx(t), siteID)
	must(t, err)
	for _, g := range tree.Groups {
		groups = append(groups, g.ID)
	}
	for _, s := range tree.Sections {
		sections = append(sections, s.ID)
	}
	for _, s := range tree.SiteSpaces {
		siteSpaces = append(siteSpaces, s.ID)
	}
	return groups, sections, siteSpaces
}

// siteVersion reads a site's version.
func (f *fixture) siteVersion(id string) int64 {
	f.t.Helper()
	s, err := f.st.Site(ctx(f.t), id)
	must(f.t, err)
	return s.Version
}

func siteTests() []test {
	return []test{
		{"sites/version moves with every write readers see", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			s, bystander := f.site(o, "Docs"), f.site(other, "Elsewhere")
			sp, unpublished := f.space(o, "", "a"), f.space(o, "", "b")
			last := f.siteVersion(s.ID)
			moves := func(what string, write func()) {
				t.Helper()
				write()
				v := f.siteVersion(s.ID)
				if v <= last {
					t.Fatalf("%s: version %d, was %d", what, v, last)
				}
				last = v
			}
			stays := func(what string, write func()) {
				t.Helper()
				write()
				equal(t, what, f.siteVersion(s.ID), last)
			}
			bystanderAt := f.siteVersion(bystander.ID)

			moves("site update", func() {
				_, err := f.st.UpdateSite(ctx(t), s.ID, quire.SiteUpdate{Published: ptr(true), Basename: ptr("docs")})
				must(t, err)
			})
			v, err := f.st.PublishedSiteVersion(ctx(t), "docs")
			must(t, err)
			equal(t, "published version by basename", v, quire.SiteVersion{ID: s.ID, Version: last})
			v, err = f.st.PublishedSiteVersion(ctx(t), s.ID)
			must(t, err)
			equal(t, "published version by id", v, quire.SiteVersion{ID: s.ID, Version: last})
			_, err = f.st.PublishedSiteVersion(ctx(t), bystander.ID)
			wantCode(t, err, quire.ENOTFOUND)

			moves("customization", func() { must(t, f.st.PutSiteCustomization(ctx(t), s.ID, []byte(`{"title":"x"}`))) })
			moves("visitor schema", func() {
				must(t, f.st.PutSiteAdaptiveSchema(ctx(t), s.ID, &quire.SiteAdaptiveSchema{JSON: []byte(`{}`), UpdatedAt: f.tick()}))
			})
			g := &quire.SiteSectionGroup{ID: quire.NewID(), SiteID: s.ID, Title: "G", Position: "a", CreatedAt: f.tick()}
			moves("group created", func() { must(t, f.st.CreateSiteSectionGroup(ctx(t), g)) })
			moves("group renamed", func() { g.Title = "H"; must(t, f.st.UpdateSiteSectionGroup(ctx(t), g)) })
			var sec *quire.SiteSection
			moves("section created", func() { sec = f.section(s, "", "guides", "a") })
			moves("section updated", func() {
				must(t, f.st.UpdateSiteSection(ctx(t), sec.ID, quire.SiteSectionUpdate{Condition: ptr("visitor.claims.x")}))
			})
			moves("section moved", func() { must(t, f.st.PlaceSiteItem(ctx(t), quire.SiteItemSection, sec.ID, g.ID, "b")) })
			var ss *quire.SiteSpace
			moves("site space created", func() { ss = f.siteSpace(s, sec.ID, sp, "a", "a") })
			moves("site space updated", func() {
				must(t, f.st.UpdateSiteSpace(ctx(t), ss.ID, quire.SiteSpaceUpdate{Path: ptr("b")}))
			})
			l := &quire.SiteShareLink{ID: quire.NewID(), SiteID: s.ID, Key: "k", Active: true, CreatedAt: f.tick()}
			moves("share link created", func() { must(t, f.st.CreateSiteShareLink(ctx(t), l)) })
			moves("share link revoked", func() {
				_, err := f.st.UpdateSiteShareLink(ctx(t), s.ID, l.ID, quire.SiteShareLinkUpdate{Active: ptr(false)})
				must(t, err)
			})
			moves("share link deleted", func() {
				_, err := f.st.DeleteSiteShareLink(ctx(t), s.ID, l.ID)
				must(t, err)
			})

			moves("space revision", func() {
				r := f.revision(sp, sp.Revision)
				must(t, f.st.AdvanceSpaceRevision(ctx(t), sp.ID, sp.Revision, r.ID))
			})
			moves("space title", func() {
				_, err := f.st.UpdateSpace(ctx(t), sp.ID, quire.SpaceUpdate{Title: ptr("Renamed")})
				must(t, err)
			})
			stays("a space the site does not publish", func() {
				_, err := f.st.UpdateSpace(ctx(t), unpublished.ID, quire.SpaceUpdate{Title: ptr("Other")})
				must(t, err)
			})
			stays("a change request counted", func() { f.changeRequest(sp, f.user("Ada", "ada@x.io"), quire.CROpen) })

			spec := &quire.OpenAPISpec{ID: quire.NewID(), OrgID: o.ID, Slug: "pets", SourceText: "openapi: 3.1.0",
				Visibility: quire.OpenAPIPrivate, State: quire.OpenAPIPending, Generation: 1, CreatedAt: f.tick(), UpdatedAt: f.tick()}
			moves("specification created", func() { must(t, f.st.CreateOpenAPISpec(ctx(t), spec)) })
			stays("specification checked, nothing new", func() {
				spec.CheckedAt = f.tick()
				_, err := f.st.UpdateOpenAPISpec(ctx(t), spec, -1)
				must(t, err)
			})
			moves("specification's new version", func() {
				spec.LastVersion = quire.NewID()
				_, err := f.st.UpdateOpenAPISpec(ctx(t), spec, -1)
				must(t, err)
			})
			moves("specification deleted", func() {
				_, err := f.st.DeleteOpenAPISpec(ctx(t), o.ID, "pets")
				must(t, err)
			})

			moves("site space deleted", func() {
				_, err := f.st.DeleteSiteSpace(ctx(t), ss.ID)
				must(t, err)
			})
			moves("section deleted", func() {
				_, err := f.st.DeleteSiteSection(ctx(t), sec.ID)
				must(t, err)
			})
			moves("group deleted", func() {
				_, err := f.st.DeleteSiteSectionGroup(ctx(t), g.ID)
				must(t, err)
			})
			f.siteSpace(s, "", sp, "a", "a")
			last = f.siteVersion(s.ID)
			moves("space trashed", func() {
				_, err := f.st.DeleteSpace(ctx(t), sp.ID, f.tick())
				must(t, err)
			})
			equal(t, "another organization's site", f.siteVersion(bystander.ID), bystanderAt)
			ok, err := f.st.DeleteSite(ctx(t), s.ID)
			must(t, err)
			equal(t, "site deleted with its structure", ok, true)
		}},
		{"sites/create, read, list, update, delete", func(t *testing.T, f *fixture) {
			o, other := f.org("A"), f.org("B")
			a, b := f.site(o, "Alpha docs"), f.site(o, "Beta")
			f.site(other, "Elsewhere")
			sp := f.space(o, "", "a")
			f.siteSpace(b, "", sp, "a", "a")

			got, err := f.st.Site(ctx(t), b.ID)
			must(t, err)
			equal(t, "site space count", got.SiteSpaces, 1)
			b.SiteSpaces, b.Version = 1, got.Version
			equal(t, "read back", got, b)
			_, err = f.st.Site(ctx(t), "nope")
			wantCode(t, err, quire.ENOTFOUND)

			list := func(filter quire.SiteFilter) []string {
				t.Helper()
				filter.OrgID = o.ID
				l, err := f.st.Sites(ctx(t), filter, quire.Page{})
				must(t, err)
				var ids []string
				for _, s := range l.Items {
					ids = append(ids, s.ID)
				}
				return ids
			}
			equal(t, "all", list(quire.SiteFilter{}), []string{a.ID, b.ID})
			equal(t, "by space", list(quire.SiteFilter{SpaceID: sp.ID}), []string{b.ID})
			equal(t, "by title", list(quire.SiteFilter{Title: "ALPHA"}), []string{a.ID})
			equal(t, "title wildcards are literal", list(quire.SiteFilter{Title: "%"}), []string(nil))
			equal(t, "unpublished", list(quire.SiteFilter{Published: ptr(false)}), []string{a.ID, b.ID})
			equal(t, "by type", list(quire.SiteFilter{Types: []quire.SiteType{quire.SitePremium}}), []string(nil))
			page, err := f.st.Sites(ctx(t), quire.SiteFilter{OrgID: o.ID}, quire.Page{Limit: 1})
			must(t, err)
			next, err := f.st.Sites(ctx(t), quire.SiteFilter{OrgID: o.ID}, quire.Page{Limit: 1, Cursor: page.Next})
			must(t, err)
			equal(t, "second page", next.Items[0].ID, b.ID)

			up, err := f.st.UpdateSite(ctx(t), a.ID, quire.SiteUpdate{Title: ptr("Renamed"), Published: ptr(true),
				Basename: ptr("docs"), Proxy: ptr("example.com/docs"), AdaptiveContent: ptr(true)})
			must(t, err)
			equal(t, "updated", []any{up.Title, up.Published, up.Basename, up.Proxy, up.AdaptiveContent},
				[]any{"Renamed", true, "docs", "example.com/docs", true})
			equal(t, "published", list(quire.SiteFilter{Published: ptr(true)}), []string{a.ID})
			_, err = f.st.UpdateSite(ctx(t), b.ID, quire.SiteUpdate{Basename: ptr("docs")})
			wantCode(t, err, quire.ECONFLICT)
			byName, err := f.st.PublishedSiteByName(ctx(t), "docs")
			must(t, err)
			equal(t, "published by basename", byName.ID, a.ID)
			byName, err = f.st.PublishedSiteByName(ctx(t), a.ID)
			must(t, err)
			equal(t, "published by id", byName.ID, a.ID)
			_, err = f.st.PublishedSiteByName(ctx(t), b.ID)
			wantCode(t, err, quire.ENOTFOUND)
			published := func(filter quire.PublishedSiteFilter) []string {
				t.Helper()
				pub, err := f.st.PublishedSitesOf(ctx(t), filter, 10)
				must(t, err)
				var ids []string
				for _, s := range pub {
					ids = append(ids, s.ID)
				}
				return ids
			}
			shown := f.space(o, "", "c")
			f.siteSpace(a, "", shown, "c", "c")
			equal(t, "published sites", published(quire.PublishedSiteFilter{Visibilities: []quire.Visibility{a.Visibility}}), []string{a.ID})
			equal(t, "no published visitor-auth sites", published(quire.PublishedSiteFilter{Visibilities: []quire.Visibility{quire.VisibilityVisitorAuth}}), []string(nil))
			equal(t, "published sites of a space", published(quire.PublishedSiteFilter{Visibilities: []quire.Visibility{a.Visibility}, SpaceID: shown.ID}), []string{a.ID})
			equal(t, "a space only in an unpublished site", published(quire.PublishedSiteFilter{Visibilities: []quire.Visibility{a.Visibility}, SpaceID: sp.ID}), []string(nil))
			up, err = f.st.UpdateSite(ctx(t), a.ID, quire.SiteUpdate{Basename: ptr("")})
			must(t, err)
			equal(t, "basename cleared", up.Basename, "")
			_, err = f.st.UpdateSite(ctx(t), "nope", quire.SiteUpdate{Title: ptr("x")})
			wantCode(t, err, quire.ENOTFOUND)

			// Deleting a site takes its structure and links, not the spaces.
			must(t, f.st.CreateSiteShareLink(ctx(t), &quire.SiteShareLink{ID: quire.NewID(), SiteID: b.ID, Key: "k", Active: true, CreatedAt: f.tick()}))
			ok, err := f.st.DeleteSite(ctx(t), b.ID)
			must(t, err)
			equal(t, "deleted", ok, true)
			ok, err = f.st.DeleteSite(ctx(t), b.ID)
			must(t, err)
			equal(t, "deleted twice", ok, false)
			_, _, ss := treeIDs(t, f, b.ID)
			equal(t, "site spaces gone", ss, []string(nil))
			_, err = f.st.SiteShareLinkByKey(ctx(t), b.ID, "k")
			wantCode(t, err, quire.ENOTFOUND)
			_, err = f.st.Space(ctx(t), sp.ID)
			must(t, err)
		}},
		{"sites/structure, positions and paths", func(t *testing.T, f *fixture) {
			o := f.org("A")
			s, other := f.site(o, "Docs"), f.site(o, "Other")
			sp := f.space(o, "", "a")
			last := func(kind quire.SiteItemKind, parent string) string {
				t.Helper()
				p, err := f.st.LastSitePosition(ctx(t), s.ID, kind, parent)
				must(t, err)
				return p
			}
			equal(t, "empty", last(quire.SiteItemSection, ""), "")
			g := &quire.SiteSectionGroup{ID: quire.NewID(), SiteID: s.ID, Title: "G", Position: "m", CreatedAt: f.tick()}
			must(t, f.st.CreateSiteSectionGroup(ctx(t), g))
			a := f.section(s, "", "guides", "c")
			b := f.section(s, g.ID, "api", "b")
			f.section(other, "", "zz", "z")
			equal(t, "root: the group is last", last(quire.SiteItemSection, ""), "m")
			equal(t, "in the group", last(quire.SiteItemGroup, g.ID), "b")
			x := f.siteSpace(s, a.ID, sp, "guides", "h")
			f.siteSpace(s, a.ID, sp, "guides-2", "k")
			f.siteSpace(s, "", sp, "root", "q")
			f.siteSpace(other, "", sp, "root", "y")
			equal(t, "site spaces of a section", last(quire.SiteItemSpace, a.ID), "k")
			equal(t, "site spaces at the root", last(quire.SiteItemSpace, ""), "q")

			paths, err := f.st.SitePathsLike(ctx(t), s.ID, quire.SiteItemSpace, a.ID, "guides")
			must(t, err)
			slices.Sort(paths)
			equal(t, "site space paths", paths, []string{"guides", "guides-2"})
			paths, err = f.st.SitePathsLike(ctx(t), s.ID, quire.SiteItemSection, "", "api")
			must(t, err)
			equal(t, "section paths site-wide", paths, []string{"api"})
			paths, err = f.st.SitePathsLike(ctx(t), s.ID, quire.SiteItemSpace, a.ID, "gui_es")
			must(t, err)
			equal(t, "underscore is literal", paths, []string(nil))

			// Paths are unique next to each other.
			err = f.st.CreateSiteSpace(ctx(t), &quire.SiteSpace{ID: quire.NewID(), SiteID: s.ID, Section: a.ID, SpaceID: sp.ID, Path: "guides", Position: "z", CreatedAt: f.tick()})
			wantCode(t, err, quire.ECONFLICT)
			err = f.st.UpdateSiteSection(ctx(t), b.ID, quire.SiteSectionUpdate{Path: ptr("guides")})
			wantCode(t, err, quire.ECONFLICT)

			// Moves and updates.
			must(t, f.st.PlaceSiteItem(ctx(t), quire.SiteItemSection, a.ID, g.ID, "a"))
			must(t, f.st.PlaceSiteItem(ctx(t), quire.SiteItemSpace, x.ID, "", "r"))
			must(t, f.st.UpdateSiteSection(ctx(t), b.ID, quire.SiteSectionUpdate{Condition: ptr("visitor.claims.beta"), DefaultSiteSpace: ptr(x.ID)}))
			must(t, f.st.UpdateSiteSpace(ctx(t), x.ID, quire.SiteSpaceUpdate{Path: ptr("moved"), Condition: ptr("true")}))
			g.Title, g.Icon = "Renamed", "book"
			must(t, f.st.UpdateSiteSectionGroup(ctx(t), g))
			tree, err := f.st.SiteTree(ctx(t), s.ID)
			must(t, err)
			equal(t, "section order", []string{tree.Sections[0].ID, tree.Sections[1].ID}, []string{a.ID, b.ID})
			equal(t, "moved section", tree.Sections[0].Group, g.ID)
			equal(t, "section update", []string{tree.Sections[1].Condition, tree.Sections[1].DefaultSiteSpace}, []string{"visitor.claims.beta", x.ID})
			var moved *quire.SiteSpace
			for _, ss := range tree.SiteSpaces {
				if ss.ID == x.ID {
					moved = ss
				}
			}
			equal(t, "moved site space", []string{moved.Section, moved.Path, moved.Condition, moved.Position}, []string{"", "moved", "true", "r"})
			equal(t, "group", []string{tree.Groups[0].Title, tree.Groups[0].Icon}, []string{"Renamed", "book"})
			equal(t, "spaces", len(tree.Spaces), 1)
			wantCode(t, f.st.PlaceSiteItem(ctx(t), quire.SiteItemSpace, "nope", "", "a"), quire.ENOTFOUND)

			// Deleting a section takes its site spaces; deleting a group
			// leaves its sections at the root.
			ok, err := f.st.DeleteSiteSection(ctx(t), b.ID)
			must(t, err)
			equal(t, "section deleted", ok, true)
			ok, err = f.st.DeleteSiteSectionGroup(ctx(t), g.ID)
			must(t, err)
			equal(t, "group deleted", ok, true)
			tree, err = f.st.SiteTree(ctx(t), s.ID)
			must(t, err)
			equal(t, "sections left", len(tree.Sections), 1)
			equal(t, "section at the root", tree.Sections[0].Group, "")
			ok, err = f.st.DeleteSiteSpace(ctx(t), x.ID)
			must(t, err)
			equal(t, "site space deleted", ok, true)
		}},
		{"sites/spaces leave the sites when deleted or transferred", func(t *testing.T, f *fixture) {
			o, o2 := f.org("A"), f.org("B")
			s := f.site(o, "Docs")
			c := f.collection(o, "", "c")
			gone, inColl, moved, kept := f.space(o, "", "a"), f.space(o, c.ID, "b"), f.space(o, "", "d"), f.space(o, "", "e")
			for i, sp := range []*quire.Space{gone, inColl, moved, kept} {
				f.siteSpace(s, "", sp, sp.ID, string(rune('a'+i)))
			}
			_, err := f.st.DeleteSpace(ctx(t), gone.ID, f.tick())
			must(t, err)
			_, err = f.st.DeleteCollection(ctx(t), c.ID, f.tick())
			must(t, err)
			_, err = f.st.PlaceSpace(ctx(t), moved.ID, o2.ID, "", "a")
			must(t, err)
			tree, err := f.st.SiteTree(ctx(t), s.ID)
			must(t, err)
			equal(t, "site spaces left", len(tree.SiteSpaces), 1)
			equal(t, "the kept space", tree.SiteSpaces[0].SpaceID, kept.ID)
			got, err := f.st.Site(ctx(t), s.ID)
			must(t, err)
			equal(t, "count", got.SiteSpaces, 1)
		}},
		{"sites/visitor schema, customization and share links", func(t *testing.T, f *fixture) {
			o := f.org("A")
			s := f.site(o, "Docs")
			_, err := f.st.SiteAdaptiveSchema(ctx(t), s.ID)
			wantCode(t, err, quire.ENOTFOUND)
			a := &quire.SiteAdaptiveSchema{JSON: []byte(`{"type":"object"}`), UpdatedAt: f.tick()}
			must(t, f.st.PutSiteAdaptiveSchema(ctx(t), s.ID, a))
			got, err := f.st.SiteAdaptiveSchema(ctx(t), s.ID)
			must(t, err)
			equal(t, "schema", got, a)
			wantCode(t, f.st.PutSiteAdaptiveSchema(ctx(t), "nope", a), quire.ENOTFOUND)

			c, err := f.st.SiteCustomization(ctx(t), s.ID)
			must(t, err)
			equal(t, "no customization", c, []byte(nil))
			must(t, f.st.PutSiteCustomization(ctx(t), s.ID, []byte(`{"title":"T"}`)))
			c, err = f.st.SiteCustomization(ctx(t), s.ID)
			must(t, err)
			equal(t, "customization", string(c), `{"title":"T"}`)
			_, err = f.st.SiteCustomization(ctx(t), "nope")
			wantCode(t, err, quire.ENOTFOUND)

			l1 := &quire.SiteShareLink{ID: quire.NewID(), SiteID: s.ID, Name: "One", Key: "k1", Active: true, CreatedAt: f.tick()}
			l2 := &quire.SiteShareLink{ID: quire.NewID(), SiteID: s.ID, Name: "Two", Key: "k2", Active: true, CreatedAt: f.tick()}
			must(t, f.st.CreateSiteShareLink(ctx(t), l1))
			must(t, f.st.CreateSiteShareLink(ctx(t), l2))
			wantCode(t, f.st.CreateSiteShareLink(ctx(t), &quire.SiteShareLink{ID: quire.NewID(), SiteID: s.ID, Key: "k1", CreatedAt: f.tick()}), quire.ECONFLICT)
			page, err := f.st.SiteShareLinks(ctx(t), s.ID, quire.Page{Limit: 1})
			must(t, err)
			equal(t, "first page", []any{page.Items[0], page.Count}, []any{l1, 2})
			page, err = f.st.SiteShareLinks(ctx(t), s.ID, quire.Page{Limit: 1, Cursor: page.Next})
			must(t, err)
			equal(t, "second page", []any{page.Items[0], page.Next}, []any{l2, ""})
			byKey, err := f.st.SiteShareLinkByKey(ctx(t), s.ID, "k2")
			must(t, err)
			equal(t, "by key", byKey, l2)
			up, err := f.st.UpdateSiteShareLink(ctx(t), s.ID, l2.ID, quire.SiteShareLinkUpdate{Name: ptr("Renamed"), Active: ptr(false)})
			must(t, err)
			equal(t, "updated", []any{up.Name, up.Active}, []any{"Renamed", false})
			_, err = f.st.UpdateSiteShareLink(ctx(t), "other", l2.ID, quire.SiteShareLinkUpdate{Name: ptr("x")})
			wantCode(t, err, quire.ENOTFOUND)
			ok, err := f.st.DeleteSiteShareLink(ctx(t), s.ID, l1.ID)
			must(t, err)
			equal(t, "deleted", ok, true)
			_, err = f.st.SiteShareLinkByKey(ctx(t), s.ID, "k1")
			wantCode(t, err, quire.ENOTFOUND)
		}},
	}
}
