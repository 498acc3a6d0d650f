package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"

	"quire/internal/quire"
)

// orgCols are the columns scanOrganization reads, for an organizations
// table aliased o.
const orgCols = `o.id, o.title, o.created_at, o.email_domains, o.hostname, o.type,
	o.use_case, o.community_type, o.default_role, o.default_site, o.sso, o.ai,
	o.invite_links, o.plan, o.logo_url, o.merge_rules`

// scanOrganization reads the columns of orgCols.
func scanOrganization(sc scanner) (*quire.Organization, error) {
	var (
		o        quire.Organization
		created  int64
		domains  string
		role     sql.NullString
		rulesRaw string
	)
	err := sc.Scan(&o.ID, &o.Title, &created, &domains, &o.Hostname, &o.Type,
		&o.UseCase, &o.CommunityType, &role, &o.DefaultSite, &o.SSO, &o.AI,
		&o.InviteLinks, &o.Plan, &o.LogoURL, &rulesRaw)
	if err != nil {
		return nil, err
	}
	o.CreatedAt = fromMillis(created)
	o.DefaultRole = quire.Role(role.String)
	if o.EmailDomains, err = decodeStrings(domains); err != nil {
		return nil, err
	}
	if o.MergeRules, err = decodeMergeRules(rulesRaw); err != nil {
		return nil, err
	}
	return &o, nil
}

// CreateOrganization stores a new organization and indexes its email
// domains.
func (s *Store) CreateOrganization(ctx context.Context, o *quire.Organization) error {
	return s.inTx(ctx, func(tx *Store) error {
		_, err := tx.exec(ctx, `INSERT INTO organizations
			(id, title, created_at, email_domains, hostname, type, use_case, community_type,
			 default_role, default_site, sso, ai, invite_links, plan, logo_url, merge_rules)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			o.ID, o.Title, millis(o.CreatedAt), encodeStrings(o.EmailDomains), o.Hostname, o.Type,
			o.UseCase, o.CommunityType, nullString(o.DefaultRole), o.DefaultSite, o.SSO, o.AI,
			o.InviteLinks, o.Plan, o.LogoURL, encodeMergeRules(o.MergeRules))
		if err != nil {
			return tx.conflict("create organization", err, "an organization with this id already exists")
		}
		return tx.setEmailDomains(ctx, o.ID, o.EmailDomains)
	})
}

// setEmailDomains replaces the lookup rows of an organization's email
// domains, lower-cased and without duplicates.
func (s *Store) setEmailDomains(ctx context.Context, orgID string, domains []string) error {
	if _, err := s.exec(ctx, "DELETE FROM organization_email_domains WHERE org_id = ?", orgID); err != nil {
		return wrap("set email domains", err)
	}
	seen := make([]string, 0, len(domains))
	for _, d := range domains {
		d = normalizeDomain(d)
		if d == "" || slices.Contains(seen, d) {
			continue
		}
		seen = append(seen, d)
		if _, err := s.exec(ctx, "INSERT INTO organization_email_domains (org_id, domain) VALUES (?, ?)", orgID, d); err != nil {
			return wrap("set email domains", err)
		}
	}
	return nil
}

// normalizeDomain is the form email domains are matched in.
func normalizeDomain(d string) string { return strings.ToLower(strings.TrimSpace(d)) }

// Organization returns an organization by id, or ENOTFOUND.
func (s *Store) Organization(ctx context.Context, id string) (*quire.Organization, error) {
	o, err := scanOrganization(s.queryRow(ctx, "SELECT "+orgCols+" FROM organizations o WHERE o.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("organization")
	}
	return o, wrap("get organization", err)
}

// UpdateOrganization applies the non-nil fields of upd. Returns ENOTFOUND.
func (s *Store) UpdateOrganization(ctx context.Context, id string, upd quire.OrganizationUpdate) (*quire.Organization, error) {
	var set setter
	setIf(&set, "title", upd.Title)
	setIf(&set, "hostname", upd.Hostname)
	setIf(&set, "default_site", upd.DefaultSite)
	setIf(&set, "logo_url", upd.LogoURL)
	setIf(&set, "sso", upd.SSO)
	setIf(&set, "ai", upd.AI)
	setIf(&set, "invite_links", upd.InviteLinks)
	if upd.DefaultRole != nil {
		set.add("default_role", nullString(*upd.DefaultRole))
	}
	if upd.EmailDomains != nil {
		set.add("email_domains", encodeStrings(*upd.EmailDomains))
	}
	if upd.MergeRules != nil {
		set.add("merge_rules", encodeMergeRules(*upd.MergeRules))
	}
	var out *quire.Organization
	err := s.inTx(ctx, func(tx *Store) error {
		if err := tx.update(ctx, "organizations", "id = ?", []any{id}, set, "organization"); err != nil {
			return err
		}
		if upd.EmailDomains != nil {
			if err := tx.setEmailDomains(ctx, id, *upd.EmailDomains); err != nil {
				return err
			}
		}
		var err error
		out, err = tx.Organization(ctx, id)
		return err
	})
	return out, wrap("update organization", err)
}

// OrganizationsForUser lists the organizations the user is a member of,
// oldest membership first, leaving out disabled memberships.
func (s *Store) OrganizationsForUser(ctx context.Context, userID string, p quire.Page) (*quire.List[*quire.Organization], error) {
	const tag = "ou"
	var f filter
	f.add("m.user_id = ?", userID)
	f.add("NOT m.disabled")
	count, err := s.count(ctx, "SELECT COUNT(*) FROM members m"+f.where(), f.args...)
	if err != nil {
		return nil, wrap("list organizations", err)
	}
	if err := seekAfter[int64](&f, p, tag, "m.joined_at", "m.org_id", false); err != nil {
		return nil, err
	}
	type row struct {
		org    *quire.Organization
		joined int64
	}
	q := "SELECT " + orgCols + ", m.joined_at FROM members m JOIN organizations o ON o.id = m.org_id" +
		f.where() + " ORDER BY m.joined_at, m.org_id"
	rows, more, err := fetchPage(ctx, s, q, f.args, p.Size(), func(sc scanner) (row, error) {
		var r row
		o, err := scanOrganization(rowWithExtra{sc, []any{&r.joined}})
		r.org = o
		return r, err
	})
	if err != nil {
		return nil, wrap("list organizations", err)
	}
	items := make([]*quire.Organization, len(rows))
	for i, r := range rows {
		items[i] = r.org
	}
	l := newList(items, more, count, func(o *quire.Organization) string {
		return encodeCursor(tag, rows[len(rows)-1].joined, o.ID)
	})
	return l, nil
}

// Organizations lists every organization, oldest first, a page at a time.
// The list is not counted.
func (s *Store) Organizations(ctx context.Context, p quire.Page) (*quire.List[*quire.Organization], error) {
	const tag = "oa"
	var f filter
	if err := seekAfter[int64](&f, p, tag, "o.created_at", "o.id", false); err != nil {
		return nil, err
	}
	q := "SELECT " + orgCols + " FROM organizations o" + f.where() + " ORDER BY o.created_at, o.id"
	items, more, err := fetchPage(ctx, s, q, f.args, p.Size(), scanOrganization)
	if err != nil {
		return nil, wrap("list organizations", err)
	}
	return newList(items, more, quire.Uncounted, func(o *quire.Organization) string {
		return encodeCursor(tag, millis(o.CreatedAt), o.ID)
	}), nil
}

// OrganizationsForEmailDomain lists the organizations whose email domains
// include domain, compared case-insensitively, oldest first.
func (s *Store) OrganizationsForEmailDomain(ctx context.Context, domain string) ([]*quire.Organization, error) {
	q := "SELECT " + orgCols + ` FROM organizations o
		WHERE o.id IN (SELECT d.org_id FROM organization_email_domains d WHERE d.domain = ?)
		ORDER BY o.created_at, o.id`
	out, err := fetchAll(ctx, s, q, []any{normalizeDomain(domain)}, scanOrganization)
	return out, wrap("list organizations for domain", err)
}

// CreateInvite stores an invite link.
func (s *Store) CreateInvite(ctx context.Context, inv *quire.Invite) error {
	_, err := s.exec(ctx, "INSERT INTO invites (id, org_id, role, created_at) VALUES (?, ?, ?, ?)",
		inv.ID, inv.OrgID, nullString(inv.Role), millis(inv.CreatedAt))
	if err != nil {
		return s.conflict("create invite", err, "an invite with this id already exists")
	}
	return nil
}

// DeleteInvite removes an invite link of the organization; it reports
// whether one existed.
func (s *Store) DeleteInvite(ctx context.Context, orgID, id string) (bool, error) {
	n, err := s.exec(ctx, "DELETE FROM invites WHERE org_id = ? AND id = ?", orgID, id)
	return n > 0, wrap("delete invite", err)
}

// scanInvite reads id, org_id, role, created_at.
func scanInvite(sc scanner) (*quire.Invite, error) {
	var (
		inv     quire.Invite
		role    sql.NullString
		created int64
	)
	if err := sc.Scan(&inv.ID, &inv.OrgID, &role, &created); err != nil {
		return nil, err
	}
	inv.Role, inv.CreatedAt = quire.Role(role.String), fromMillis(created)
	return &inv, nil
}

// Invites lists an organization's invite links, oldest first.
func (s *Store) Invites(ctx context.Context, orgID string) ([]*quire.Invite, error) {
	out, err := fetchAll(ctx, s, `SELECT id, org_id, role, created_at FROM invites
		WHERE org_id = ? ORDER BY created_at, id`, []any{orgID}, scanInvite)
	return out, wrap("list invites", err)
}

// Invite returns an invite link by id.
func (s *Store) Invite(ctx context.Context, id string) (*quire.Invite, error) {
	inv, err := scanInvite(s.queryRow(ctx, "SELECT id, org_id, role, created_at FROM invites WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("invite")
	}
	return inv, wrap("get invite", err)
}
