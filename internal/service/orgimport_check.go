package service

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"quire/internal/gitbook"
	"quire/internal/quire"
)

// The values the manifest's enumerations may take.
var (
	spaceVisibilities = []quire.Visibility{quire.VisibilityPublic, quire.VisibilityUnlisted, quire.VisibilityShareLink,
		quire.VisibilityVisitorAuth, quire.VisibilityInCollection, quire.VisibilityPrivate}
	siteVisibilities = []quire.Visibility{quire.VisibilityPublic, quire.VisibilityUnlisted, quire.VisibilityShareLink,
		quire.VisibilityVisitorAuth}
	siteTypes = []quire.SiteType{quire.SiteBasic, quire.SitePremium, quire.SiteUltimate, quire.SiteSponsored,
		quire.SiteLegacyBasic, quire.SiteLegacyPremium}
)

// oneOf reports whether v is one of the values.
func oneOf[T ~string](v string, values []T) bool {
	for _, x := range values {
		if string(x) == v {
			return true
		}
	}
	return false
}

// underField prefixes the field an EINVALID error names.
func underField(prefix string, err error) error {
	var qe *quire.Error
	if errors.As(err, &qe) && qe.Code == quire.EINVALID {
		c := *qe
		c.Field = strings.TrimSuffix(prefix+"."+c.Field, ".")
		return &c
	}
	return err
}

// check refuses a manifest that does not hold together, and a space
// whose repository does not read, before anything is written. Every
// error is EINVALID naming the manifest's field or the file.
func (r *importRun) check(ctx context.Context) error {
	m := r.m
	if err := checkTitle("organization.title", m.Organization.Title, 2, 255); err != nil {
		return err
	}
	if err := checkRole("organization.defaultRole", m.Organization.DefaultRole, true); err != nil {
		return err
	}
	if err := checkMergeRules(toMergeRules(m.Organization.MergeRules, nil), false); err != nil {
		return underField("organization", err)
	}
	users := map[string]bool{}
	emails := map[string]bool{}
	for i, u := range m.Users {
		f := fmt.Sprintf("users[%d]", i)
		if u.ID == "" || users[u.ID] {
			return quire.Invalid(f+".id", "missing or repeated")
		}
		if !validEmail(u.Email) {
			return quire.Invalid(f+".email", "must be an email address")
		}
		if e := strings.ToLower(u.Email); emails[e] {
			return quire.Invalid(f+".email", "repeated")
		} else {
			emails[e] = true
		}
		users[u.ID] = true
	}
	if err := r.checkRuleUsers("organization.mergeRules", m.Organization.MergeRules, users); err != nil {
		return err
	}
	members := map[string]bool{}
	for i, mb := range m.Members {
		f := fmt.Sprintf("members[%d]", i)
		if !users[mb.User] || members[mb.User] {
			return quire.Invalid(f+".user", "must name a user of the manifest once")
		}
		if err := checkRole(f+".role", mb.Role, true); err != nil {
			return err
		}
		members[mb.User] = true
	}
	teams := map[string]bool{}
	for i, t := range m.Teams {
		f := fmt.Sprintf("teams[%d]", i)
		if t.ID == "" || teams[t.ID] {
			return quire.Invalid(f+".id", "missing or repeated")
		}
		if err := checkTitle(f+".title", t.Title, 1, 64); err != nil {
			return err
		}
		for j, tm := range t.Members {
			if !members[tm.User] {
				return quire.Invalid(fmt.Sprintf("%s.members[%d].user", f, j), "must be a member of the organization")
			}
			if tm.Role != quire.TeamOwner && tm.Role != quire.TeamMember {
				return quire.Invalid(fmt.Sprintf("%s.members[%d].role", f, j), "must be owner or member")
			}
		}
		teams[t.ID] = true
	}
	cols := map[string]bool{}
	for i, c := range m.Collections {
		f := fmt.Sprintf("collections[%d]", i)
		if c.ID == "" || cols[c.ID] {
			return quire.Invalid(f+".id", "missing or repeated")
		}
		if c.Parent != "" && !cols[c.Parent] {
			return quire.Invalid(f+".parent", "must name a collection listed before it")
		}
		if err := checkDefaultLevel(f+".defaultLevel", c.DefaultLevel); err != nil {
			return err
		}
		if err := checkGrants(f+".grants", c.Grants, users, teams); err != nil {
			return err
		}
		cols[c.ID] = true
	}
	spaces := map[string]bool{}
	dirs := map[string]bool{}
	for i, sp := range m.Spaces {
		f := fmt.Sprintf("spaces[%d]", i)
		if sp.ID == "" || spaces[sp.ID] {
			return quire.Invalid(f+".id", "missing or repeated")
		}
		if sp.Collection != "" && !cols[sp.Collection] {
			return quire.Invalid(f+".collection", "must name a collection of the manifest")
		}
		if !oneOf(sp.Visibility, spaceVisibilities) || (sp.Visibility == string(quire.VisibilityInCollection) && sp.Collection == "") {
			return quire.Invalid(f+".visibility", "%q is not a visibility this space can have", sp.Visibility)
		}
		if sp.EditMode != string(quire.EditModeLive) && sp.EditMode != string(quire.EditModeLocked) {
			return quire.Invalid(f+".editMode", "must be live or locked")
		}
		if err := checkDefaultLevel(f+".defaultLevel", sp.DefaultLevel); err != nil {
			return err
		}
		if err := checkMergeRules(toMergeRules(sp.MergeRules, nil), true); err != nil {
			return underField(f, err)
		}
		if err := r.checkRuleUsers(f+".mergeRules", sp.MergeRules, users); err != nil {
			return err
		}
		if err := checkGrants(f+".grants", sp.Grants, users, teams); err != nil {
			return err
		}
		if err := r.checkDirectory(ctx, f+".directory", sp.Directory, dirs); err != nil {
			return err
		}
		if err := checkComments(f+".comments", sp.Comments, users); err != nil {
			return err
		}
		spaces[sp.ID] = true
	}
	return r.checkSites(spaces)
}

// checkRole checks a role; guest ("") is allowed when guest is true.
func checkRole(field, role string, guest bool) error {
	if (role == "" && guest) || quire.Role(role).Valid() {
		return nil
	}
	return quire.Invalid(field, "%q is not a role", role)
}

// checkDefaultLevel checks a default level: inherit, none ("") or a role.
func checkDefaultLevel(field, level string) error {
	if level == string(quire.DefaultInherit) {
		return nil
	}
	return checkRole(field, level, true)
}

// checkRuleUsers checks that merge rules name users of the manifest.
func (r *importRun) checkRuleUsers(field string, rules ManifestMergeRules, users map[string]bool) error {
	for i, rule := range rules.Rules {
		for _, u := range rule.Users {
			if !users[u] {
				return quire.Invalid(fmt.Sprintf("%s.rules[%d].users", field, i), "%q is not a user of the manifest", u)
			}
		}
	}
	return nil
}

// checkGrants checks grants: each to a user or a team of the manifest,
// with a role.
func checkGrants(field string, grants []ManifestGrant, users, teams map[string]bool) error {
	for i, g := range grants {
		f := fmt.Sprintf("%s[%d]", field, i)
		if (g.User == "") == (g.Team == "") || (g.User != "" && !users[g.User]) || (g.Team != "" && !teams[g.Team]) {
			return quire.Invalid(f, "must name one user or one team of the manifest")
		}
		if err := checkRole(f+".role", g.Role, false); err != nil {
			return err
		}
	}
	return nil
}

// checkComments checks that comments and replies have an author of the
// manifest and a status.
func checkComments(field string, comments []ManifestComment, users map[string]bool) error {
	for i, c := range comments {
		f := fmt.Sprintf("%s[%d]", field, i)
		if !users[c.Author] {
			return quire.Invalid(f+".author", "must name a user of the manifest")
		}
		if c.Status != string(quire.CommentOpen) && c.Status != string(quire.CommentResolved) {
			return quire.Invalid(f+".status", "must be open or resolved")
		}
		if len(c.Body) == 0 {
			return quire.Invalid(f+".body", "required")
		}
		for j, rp := range c.Replies {
			if !users[rp.Author] {
				return quire.Invalid(fmt.Sprintf("%s.replies[%d].author", f, j), "must name a user of the manifest")
			}
			if len(rp.Body) == 0 {
				return quire.Invalid(fmt.Sprintf("%s.replies[%d].body", f, j), "required")
			}
		}
	}
	return nil
}

// checkDirectory checks that a space's directory is spaces/<name>, named
// by no other space, and holds a repository the Git Sync importer reads.
func (r *importRun) checkDirectory(ctx context.Context, field, dir string, seen map[string]bool) error {
	name, ok := strings.CutPrefix(dir, SpacesDir+"/")
	if !ok || name == "" || strings.Contains(name, "/") || !fs.ValidPath(dir) {
		return quire.Invalid(field, "%q is not a directory under %s/", dir, SpacesDir)
	}
	if seen[dir] {
		return quire.Invalid(field, "%q is the directory of another space too", dir)
	}
	seen[dir] = true
	sub, err := fs.Sub(r.fsys, dir)
	if err != nil {
		return quire.Invalid(field, "%v", err)
	}
	if info, err := fs.Stat(r.fsys, dir); err != nil || !info.IsDir() {
		return quire.Invalid(field, "%q is not a directory of the export", dir)
	}
	src := &dirSource{fsys: sub}
	files, err := src.gitbookFiles(ctx)
	if err != nil {
		return quire.Invalid(field, "%q cannot be read: %v", dir, err)
	}
	if _, err := gitbook.Read(files, newMintedPaths()); err != nil {
		return quire.Invalid(path.Clean(dir), "%v", err)
	}
	return nil
}

// checkSites checks that each site's structure holds together and
// publishes spaces of the manifest.
func (r *importRun) checkSites(spaces map[string]bool) error {
	ids := map[string]bool{}
	for i, s := range r.m.Sites {
		f := fmt.Sprintf("sites[%d]", i)
		if s.ID == "" || ids[s.ID] {
			return quire.Invalid(f+".id", "missing or repeated")
		}
		ids[s.ID] = true
		if !oneOf(s.Type, siteTypes) {
			return quire.Invalid(f+".type", "%q is not a site type", s.Type)
		}
		if !oneOf(s.Visibility, siteVisibilities) {
			return quire.Invalid(f+".visibility", "%q is not a site visibility", s.Visibility)
		}
		if s.AgentsContext != string(quire.AgentsIncluded) && s.AgentsContext != string(quire.AgentsExcluded) {
			return quire.Invalid(f+".agentsContext", "must be included or excluded")
		}
		groups, sections, siteSpaces := map[string]bool{}, map[string]bool{}, map[string]bool{}
		for j, g := range s.SectionGroups {
			if g.ID == "" || groups[g.ID] || (g.Parent != "" && !groups[g.Parent]) {
				return quire.Invalid(fmt.Sprintf("%s.sectionGroups[%d]", f, j), "repeated, or in a group not listed before it")
			}
			groups[g.ID] = true
		}
		for j, sec := range s.Sections {
			if sec.ID == "" || sections[sec.ID] || (sec.Group != "" && !groups[sec.Group]) {
				return quire.Invalid(fmt.Sprintf("%s.sections[%d]", f, j), "repeated, or in a group the site does not have")
			}
			sections[sec.ID] = true
		}
		for j, ss := range s.SiteSpaces {
			sf := fmt.Sprintf("%s.siteSpaces[%d]", f, j)
			if ss.ID == "" || siteSpaces[ss.ID] || (ss.Section != "" && !sections[ss.Section]) {
				return quire.Invalid(sf, "repeated, or in a section the site does not have")
			}
			if !spaces[ss.Space] {
				return quire.Invalid(sf+".space", "%q is not a space of the manifest", ss.Space)
			}
			siteSpaces[ss.ID] = true
		}
		if s.DefaultSection != "" && !sections[s.DefaultSection] {
			return quire.Invalid(f+".defaultSection", "is not a section of the site")
		}
		if s.DefaultSiteSpace != "" && !siteSpaces[s.DefaultSiteSpace] {
			return quire.Invalid(f+".defaultSiteSpace", "is not a site space of the site")
		}
		for j, sec := range s.Sections {
			if sec.DefaultSiteSpace != "" && !siteSpaces[sec.DefaultSiteSpace] {
				return quire.Invalid(fmt.Sprintf("%s.sections[%d].defaultSiteSpace", f, j), "is not a site space of the site")
			}
		}
	}
	if d := r.m.Organization.DefaultSite; d != "" && !ids[d] {
		return quire.Invalid("organization.defaultSite", "is not a site of the manifest")
	}
	return nil
}
