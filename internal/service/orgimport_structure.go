package service

import (
	"context"
	"strings"
	"time"

	"quire/internal/quire"
)

// toMergeRules converts merge rules of the manifest, mapping the users
// they name through id (nil keeps them).
func toMergeRules(m ManifestMergeRules, id func(string) string) quire.MergeRules {
	out := quire.MergeRules{Type: quire.MergeRulesType(m.Type)}
	for _, r := range m.Rules {
		rule := quire.MergeRule{Rule: quire.MergeRuleKind(r.Rule), Expression: r.Expression}
		if r.Users != nil {
			rule.Users = make([]string, 0, len(r.Users))
			for _, u := range r.Users {
				if id != nil {
					u = id(u)
				}
				rule.Users = append(rule.Users, u)
			}
		}
		out.Rules = append(out.Rules, rule)
	}
	return out
}

// writeStructure makes, in one transaction, the organization, the
// accounts of people who have none, the memberships, teams, collections,
// the (empty) spaces and the grants. The transaction may run again
// (busy, serialization failures): it starts from scratch each time.
func (r *importRun) writeStructure(ctx context.Context) error {
	s := r.x.s
	m := r.m
	var matched, created []string
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		clear(r.ids)
		clear(r.spaces)
		matched, created = nil, nil
		r.res.Warnings = r.res.Warnings[:0]
		now := s.Now()
		org := newOrganization(strings.TrimSpace(m.Organization.Title), now)
		o := m.Organization
		org.CreatedAt, org.EmailDomains, org.Type, org.UseCase, org.CommunityType = o.CreatedAt, o.EmailDomains, o.Type, o.UseCase, o.CommunityType
		org.DefaultRole, org.AI, org.InviteLinks, org.Plan, org.LogoURL = quire.Role(o.DefaultRole), o.AI, o.InviteLinks, o.Plan, o.LogoURL
		if o.Hostname != "" {
			other, err := st.OrganizationByHostname(ctx, o.Hostname)
			switch {
			case quire.IsNotFound(err):
				org.Hostname = o.Hostname
			case err != nil:
				return err
			default:
				r.warn("hostname %s is left out: organization %s has it on this server", o.Hostname, other.ID)
			}
		}
		if o.SSO {
			r.warn("single sign-on is not required: SAML providers are not exported; set one up, then require it again")
		}
		if err := st.CreateOrganization(ctx, org); err != nil {
			return err
		}
		r.ids[o.ID] = org.ID
		r.res.Organization = org.ID
		for _, u := range m.Users {
			had, err := r.user(ctx, st, u, now)
			if err != nil {
				return err
			}
			if had {
				matched = append(matched, u.Email)
			} else {
				created = append(created, u.Email)
			}
		}
		if err := r.writePeople(ctx, st, org.ID); err != nil {
			return err
		}
		if rules := toMergeRules(o.MergeRules, r.id); rules.Type != quire.MergeRulesNone || len(rules.Rules) > 0 {
			if _, err := st.UpdateOrganization(ctx, org.ID, quire.OrganizationUpdate{MergeRules: &rules}); err != nil {
				return err
			}
		}
		return r.writeTree(ctx, st, org.ID)
	})
	if err != nil {
		return err
	}
	r.res.Matched, r.res.Created = append(r.res.Matched, matched...), append(r.res.Created, created...)
	r.res.Members, r.res.Spaces = len(m.Members), len(m.Spaces)
	return nil
}

// user finds the account of a person of the manifest by email, or makes
// one without a password or token, and maps the manifest's id to it. It
// reports whether the account was there.
func (r *importRun) user(ctx context.Context, st quire.Store, mu ManifestUser, now time.Time) (bool, error) {
	u, err := st.UserByEmail(ctx, mu.Email)
	if err == nil {
		r.ids[mu.ID] = u.ID
		return true, nil
	}
	if !quire.IsNotFound(err) {
		return false, err
	}
	name := strings.TrimSpace(mu.Name)
	if name == "" || checkTitle("name", name, 1, 64) != nil {
		name, _, _ = strings.Cut(mu.Email, "@")
	}
	nu := &quire.User{ID: quire.NewID(), DisplayName: name, Email: mu.Email, PhotoURL: mu.PhotoURL, CreatedAt: now}
	if err := st.CreateUser(ctx, nu); err != nil {
		return false, err
	}
	r.ids[mu.ID] = nu.ID
	return false, nil
}

// writePeople adds the members, each recorded in the audit log as added
// by an import, and the teams with their members.
func (r *importRun) writePeople(ctx context.Context, st quire.Store, orgID string) error {
	for _, mb := range r.m.Members {
		uid := r.id(mb.User)
		m := &quire.Member{OrgID: orgID, User: quire.User{ID: uid}, Role: quire.Role(mb.Role), Disabled: mb.Disabled,
			SSO: mb.SSO, JoinedAt: mb.JoinedAt}
		if err := st.AddMember(ctx, m); err != nil {
			return err
		}
		if err := audit(ctx, st, quire.AuditEvent{OrgID: orgID, Action: quire.AuditMemberAdded,
			TargetKind: quire.AuditTargetUser, TargetID: uid,
			Details: map[string]string{"role": roleWord(quire.Role(mb.Role)), "via": "import"}}); err != nil {
			return err
		}
	}
	for _, t := range r.m.Teams {
		nt := &quire.Team{ID: quire.NewID(), OrgID: orgID, Title: strings.TrimSpace(t.Title), CreatedAt: t.CreatedAt}
		var members []string
		for _, tm := range t.Members {
			members = append(members, r.id(tm.User))
		}
		if err := st.CreateTeam(ctx, nt, members); err != nil {
			return err
		}
		r.ids[t.ID] = nt.ID
		for _, tm := range t.Members {
			if tm.Role == quire.TeamOwner {
				if err := st.SetTeamMember(ctx, orgID, nt.ID, r.id(tm.User), quire.TeamOwner); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// writeTree makes the collections, parents first, and the spaces, each
// with its position, times and settings, and their grants.
func (r *importRun) writeTree(ctx context.Context, st quire.Store, orgID string) error {
	for _, c := range r.m.Collections {
		nc := &quire.Collection{ID: quire.NewID(), OrgID: orgID, Title: c.Title, Description: c.Description,
			Parent: r.id(c.Parent), DefaultLevel: quire.DefaultLevel(c.DefaultLevel), Position: c.Position,
			CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
		if err := st.CreateCollection(ctx, nc); err != nil {
			return err
		}
		r.ids[c.ID] = nc.ID
		if err := r.writeGrants(ctx, st, quire.GrantCollection, nc.ID, c.Grants); err != nil {
			return err
		}
	}
	for _, sp := range r.m.Spaces {
		ns := &quire.Space{ID: quire.NewID(), OrgID: orgID, Title: sp.Title, Emoji: sp.Emoji, IconURL: sp.IconURL,
			Visibility: quire.Visibility(sp.Visibility), EditMode: quire.EditMode(sp.EditMode), Parent: r.id(sp.Collection),
			Language: sp.Language, DefaultLevel: quire.DefaultLevel(sp.DefaultLevel),
			MergeRules: toMergeRules(sp.MergeRules, r.id), Revision: quire.NewID(), Position: sp.Position,
			CreatedAt: sp.CreatedAt, UpdatedAt: sp.CreatedAt}
		if err := st.CreateSpace(ctx, ns); err != nil {
			return err
		}
		r.ids[sp.ID] = ns.ID
		r.spaces[sp.ID] = ns
		if err := r.writeGrants(ctx, st, quire.GrantSpace, ns.ID, sp.Grants); err != nil {
			return err
		}
	}
	return nil
}

// writeGrants gives the grants of the manifest on a new collection or
// space.
func (r *importRun) writeGrants(ctx context.Context, st quire.Store, kind quire.GrantTarget, id string, grants []ManifestGrant) error {
	for _, g := range grants {
		ng := quire.Grant{TargetKind: kind, TargetID: id, Role: quire.Role(g.Role)}
		if g.User != "" {
			ng.PrincipalKind, ng.PrincipalID = quire.PrincipalUser, r.id(g.User)
		} else {
			ng.PrincipalKind, ng.PrincipalID = quire.PrincipalTeam, r.id(g.Team)
		}
		if err := st.SetGrant(ctx, ng); err != nil {
			return err
		}
	}
	return nil
}
