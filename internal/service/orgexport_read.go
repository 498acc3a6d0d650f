package service

import (
	"cmp"
	"context"
	"slices"

	"quire/internal/quire"
)

// everyPage reads every page of a list.
func everyPage[T any](list func(p quire.Page) (*quire.List[T], error)) ([]T, error) {
	var out []T
	p := quire.Page{Limit: quire.MaxLimit}
	for {
		l, err := list(p)
		if err != nil {
			return nil, err
		}
		out = append(out, l.Items...)
		if l.Next == "" {
			return out, nil
		}
		p.Cursor = l.Next
	}
}

// read fills the manifest with everything but the spaces' comments: the
// organization, its people, its tree of collections and spaces with
// their grants, and its sites. Lists are ordered by what an import
// keeps (positions, times, titles, emails), never by ids, so that the
// export of an imported organization lists everything in the same order.
func (e *OrgExport) read(ctx context.Context, orgID string) error {
	st := e.x.s.store
	o, err := st.Organization(ctx, orgID)
	if err != nil {
		return err
	}
	m := &OrgManifest{Format: ManifestFormat, Version: ManifestVersion, ExportedAt: e.x.s.Now().UTC(),
		Organization: ManifestOrg{ID: o.ID, Title: o.Title, CreatedAt: o.CreatedAt, EmailDomains: nonNil(o.EmailDomains),
			Hostname: o.Hostname, Type: o.Type, UseCase: o.UseCase, CommunityType: o.CommunityType,
			DefaultRole: string(o.DefaultRole), DefaultSite: o.DefaultSite, SSO: o.SSO, AI: o.AI,
			InviteLinks: o.InviteLinks, Plan: o.Plan, LogoURL: o.LogoURL, MergeRules: e.mergeRules(o.MergeRules)}}
	e.manifest = m
	if err := e.readPeople(ctx, orgID); err != nil {
		return err
	}
	if err := e.readTree(ctx, orgID); err != nil {
		return err
	}
	return e.readSites(ctx, orgID)
}

// nonNil returns s, or an empty slice for nil, so that JSON says [].
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// mergeRules converts merge rules, noting the users they name.
func (e *OrgExport) mergeRules(r quire.MergeRules) ManifestMergeRules {
	out := ManifestMergeRules{Type: string(r.Type), Rules: []ManifestMergeRule{}}
	for _, rule := range r.Rules {
		for _, u := range rule.Users {
			e.users[u] = true
		}
		out.Rules = append(out.Rules, ManifestMergeRule{Rule: string(rule.Rule), Users: rule.Users, Expression: rule.Expression})
	}
	return out
}

// readPeople reads the members, ordered by when they joined then email,
// and the teams, ordered by creation then title, with their members.
func (e *OrgExport) readPeople(ctx context.Context, orgID string) error {
	st := e.x.s.store
	members, err := everyPage(func(p quire.Page) (*quire.List[*quire.Member], error) {
		return st.Members(ctx, orgID, quire.MemberFilter{Sort: quire.SortJoinedAt, Order: quire.OrderAsc}, p)
	})
	if err != nil {
		return err
	}
	slices.SortStableFunc(members, func(a, b *quire.Member) int {
		return cmp.Or(a.JoinedAt.Compare(b.JoinedAt), cmp.Compare(a.User.Email, b.User.Email))
	})
	email := map[string]string{}
	teamMembers := map[string][]ManifestTeamMember{}
	m := e.manifest
	m.Members = []ManifestMember{}
	for _, mb := range members {
		u := mb.User
		email[u.ID] = u.Email
		m.Users = append(m.Users, ManifestUser{ID: u.ID, Email: u.Email, Name: u.DisplayName, PhotoURL: u.PhotoURL})
		m.Members = append(m.Members, ManifestMember{User: u.ID, Role: string(mb.Role), Disabled: mb.Disabled,
			SSO: mb.SSO, JoinedAt: mb.JoinedAt})
		if mb.Teams == 0 {
			continue
		}
		teams, err := everyPage(func(p quire.Page) (*quire.List[*quire.MemberTeam], error) {
			return st.MemberTeams(ctx, orgID, u.ID, quire.TeamFilter{}, p)
		})
		if err != nil {
			return err
		}
		for _, t := range teams {
			teamMembers[t.Team.ID] = append(teamMembers[t.Team.ID], ManifestTeamMember{User: u.ID, Role: t.Role})
		}
	}
	teams, err := everyPage(func(p quire.Page) (*quire.List[*quire.Team], error) {
		return st.Teams(ctx, orgID, quire.TeamFilter{}, p)
	})
	if err != nil {
		return err
	}
	slices.SortStableFunc(teams, func(a, b *quire.Team) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.Title, b.Title))
	})
	m.Teams = []ManifestTeam{}
	for _, t := range teams {
		tm := nonNil(teamMembers[t.ID])
		slices.SortFunc(tm, func(a, b ManifestTeamMember) int { return cmp.Compare(email[a.User], email[b.User]) })
		m.Teams = append(m.Teams, ManifestTeam{ID: t.ID, Title: t.Title, CreatedAt: t.CreatedAt, Members: tm})
	}
	return nil
}

// readTree reads the collections and the live spaces and walks them as
// the organization's tree: each level in position order (then title),
// a collection before what it holds. Each space is given its directory.
func (e *OrgExport) readTree(ctx context.Context, orgID string) error {
	st := e.x.s.store
	cols, err := everyPage(func(p quire.Page) (*quire.List[*quire.Collection], error) {
		return st.Collections(ctx, orgID, quire.CollectionFilter{Nested: true}, p)
	})
	if err != nil {
		return err
	}
	spaces, err := everyPage(func(p quire.Page) (*quire.List[*quire.Space], error) {
		return st.Spaces(ctx, quire.SpaceFilter{OrgID: orgID}, p)
	})
	if err != nil {
		return err
	}
	type item struct {
		col *quire.Collection
		sp  *quire.Space
	}
	under := map[string][]item{}
	for _, c := range cols {
		under[c.Parent] = append(under[c.Parent], item{col: c})
	}
	for _, sp := range spaces {
		under[sp.Parent] = append(under[sp.Parent], item{sp: sp})
	}
	key := func(it item) (string, string) {
		if it.col != nil {
			return it.col.Position, it.col.Title
		}
		return it.sp.Position, it.sp.Title
	}
	var walk func(parent string)
	walk = func(parent string) {
		items := under[parent]
		slices.SortStableFunc(items, func(a, b item) int {
			pa, ta := key(a)
			pb, tb := key(b)
			return cmp.Or(cmp.Compare(pa, pb), cmp.Compare(ta, tb))
		})
		for _, it := range items {
			if it.col != nil {
				e.manifestCollection(it.col)
				walk(it.col.ID)
			} else {
				e.spaces = append(e.spaces, it.sp)
			}
		}
	}
	walk("")
	m := e.manifest
	m.Collections = nonNil(m.Collections)
	m.Spaces = []ManifestSpace{}
	for i, dir := range spaceDirectories(e.spaces) {
		sp := e.spaces[i]
		m.Spaces = append(m.Spaces, ManifestSpace{ID: sp.ID, Title: sp.Title, Emoji: sp.Emoji, IconURL: sp.IconURL,
			Visibility: string(sp.Visibility), EditMode: string(sp.EditMode), Collection: sp.Parent,
			Language: sp.Language, DefaultLevel: string(sp.DefaultLevel), MergeRules: e.mergeRules(sp.MergeRules),
			Position: sp.Position, CreatedAt: sp.CreatedAt, Directory: dir,
			Comments: []ManifestComment{}})
	}
	for i := range m.Collections {
		g, err := e.grants(ctx, quire.GrantCollection, m.Collections[i].ID)
		if err != nil {
			return err
		}
		m.Collections[i].Grants = g
	}
	for i := range m.Spaces {
		g, err := e.grants(ctx, quire.GrantSpace, m.Spaces[i].ID)
		if err != nil {
			return err
		}
		m.Spaces[i].Grants = g
	}
	return nil
}

// manifestCollection adds a collection to the manifest.
func (e *OrgExport) manifestCollection(c *quire.Collection) {
	e.manifest.Collections = append(e.manifest.Collections, ManifestCollection{ID: c.ID, Title: c.Title,
		Description: c.Description, Parent: c.Parent, DefaultLevel: string(c.DefaultLevel), Position: c.Position,
		CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt})
}

// grants lists the grants on a collection or space, users by email then
// teams by title.
func (e *OrgExport) grants(ctx context.Context, kind quire.GrantTarget, id string) ([]ManifestGrant, error) {
	gs, err := e.x.s.store.Grants(ctx, kind, id)
	if err != nil {
		return nil, err
	}
	email := map[string]string{}
	for _, u := range e.manifest.Users {
		email[u.ID] = u.Email
	}
	team := map[string]string{}
	for _, t := range e.manifest.Teams {
		team[t.ID] = t.Title
	}
	out := []ManifestGrant{}
	for _, g := range gs {
		switch g.PrincipalKind {
		case quire.PrincipalUser:
			e.users[g.PrincipalID] = true
			out = append(out, ManifestGrant{User: g.PrincipalID, Role: string(g.Role)})
		case quire.PrincipalTeam:
			out = append(out, ManifestGrant{Team: g.PrincipalID, Role: string(g.Role)})
		}
	}
	sortKey := func(g ManifestGrant) string {
		if g.User != "" {
			return "u:" + email[g.User]
		}
		return "t:" + team[g.Team]
	}
	slices.SortStableFunc(out, func(a, b ManifestGrant) int { return cmp.Compare(sortKey(a), sortKey(b)) })
	return out, nil
}

// readSites reads the sites, ordered by creation then title, each with
// its structure, customization and visitor schema.
func (e *OrgExport) readSites(ctx context.Context, orgID string) error {
	st := e.x.s.store
	sites, err := everyPage(func(p quire.Page) (*quire.List[*quire.Site], error) {
		return st.Sites(ctx, quire.SiteFilter{OrgID: orgID}, p)
	})
	if err != nil {
		return err
	}
	slices.SortStableFunc(sites, func(a, b *quire.Site) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.Title, b.Title))
	})
	m := e.manifest
	m.Sites = []ManifestSite{}
	for _, site := range sites {
		ms := ManifestSite{ID: site.ID, Title: site.Title, Type: string(site.Type), Basename: site.Basename,
			Visibility: string(site.Visibility), Published: site.Published, AdaptiveContent: site.AdaptiveContent,
			AgentsContext: string(site.AgentsContext), Proxy: site.Proxy, DefaultSection: site.DefaultSection,
			DefaultSiteSpace: site.DefaultSiteSpace, CreatedAt: site.CreatedAt,
			SectionGroups: []ManifestSectionGroup{}, Sections: []ManifestSection{}, SiteSpaces: []ManifestSiteSpace{}}
		tree, err := st.SiteTree(ctx, site.ID)
		if err != nil {
			return err
		}
		sortSiteTree(tree)
		for _, g := range tree.Groups {
			ms.SectionGroups = append(ms.SectionGroups, ManifestSectionGroup{ID: g.ID, Parent: g.Parent, Title: g.Title,
				Icon: g.Icon, Position: g.Position, CreatedAt: g.CreatedAt})
		}
		for _, sec := range tree.Sections {
			ms.Sections = append(ms.Sections, ManifestSection{ID: sec.ID, Group: sec.Group, Title: sec.Title, Path: sec.Path,
				Description: sec.Description, Icon: sec.Icon, Condition: sec.Condition,
				DefaultSiteSpace: sec.DefaultSiteSpace, Position: sec.Position, CreatedAt: sec.CreatedAt})
		}
		for _, ss := range tree.SiteSpaces {
			ms.SiteSpaces = append(ms.SiteSpaces, ManifestSiteSpace{ID: ss.ID, Section: ss.Section, Space: ss.SpaceID,
				Path: ss.Path, Condition: ss.Condition, Position: ss.Position, CreatedAt: ss.CreatedAt})
		}
		if ms.Customization, err = st.SiteCustomization(ctx, site.ID); err != nil {
			return err
		}
		schema, err := st.SiteAdaptiveSchema(ctx, site.ID)
		switch {
		case err == nil:
			ms.AdaptiveSchema = schema.JSON
		case !quire.IsNotFound(err):
			return err
		}
		m.Sites = append(m.Sites, ms)
	}
	return nil
}

// addUsers adds to the manifest the users named by merge rules, grants
// and comments who are not members, and sorts the users by email.
func (e *OrgExport) addUsers(ctx context.Context) error {
	m := e.manifest
	have := map[string]bool{}
	for _, u := range m.Users {
		have[u.ID] = true
	}
	var missing []string
	for id := range e.users {
		if id != "" && !have[id] {
			missing = append(missing, id)
		}
	}
	slices.Sort(missing)
	for _, id := range missing {
		u, err := e.x.s.store.User(ctx, id)
		if quire.IsNotFound(err) {
			continue
		}
		if err != nil {
			return err
		}
		m.Users = append(m.Users, ManifestUser{ID: u.ID, Email: u.Email, Name: u.DisplayName, PhotoURL: u.PhotoURL})
	}
	m.Users = nonNil(m.Users)
	slices.SortFunc(m.Users, func(a, b ManifestUser) int { return cmp.Compare(a.Email, b.Email) })
	return nil
}

// sortSiteTree orders a site's structure by what an import keeps, not by
// ids: groups at the root first, then each kind by position and then by
// title or path (unique within the site); site spaces by the path of
// their section first.
func sortSiteTree(t *quire.SiteTree) {
	slices.SortStableFunc(t.Groups, func(a, b *quire.SiteSectionGroup) int {
		return cmp.Or(cmp.Compare(groupDepth(a), groupDepth(b)), cmp.Compare(a.Position, b.Position), cmp.Compare(a.Title, b.Title))
	})
	slices.SortStableFunc(t.Sections, func(a, b *quire.SiteSection) int {
		return cmp.Or(cmp.Compare(a.Position, b.Position), cmp.Compare(a.Path, b.Path))
	})
	sectionPath := map[string]string{}
	for _, sec := range t.Sections {
		sectionPath[sec.ID] = sec.Path
	}
	slices.SortStableFunc(t.SiteSpaces, func(a, b *quire.SiteSpace) int {
		return cmp.Or(cmp.Compare(sectionPath[a.Section], sectionPath[b.Section]), cmp.Compare(a.Position, b.Position),
			cmp.Compare(a.Path, b.Path))
	})
}

// groupDepth is 0 for a section group at a site's root, 1 for one in
// another group.
func groupDepth(g *quire.SiteSectionGroup) int {
	if g.Parent == "" {
		return 0
	}
	return 1
}
