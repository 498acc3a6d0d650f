package service

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"quire/internal/quire"
)

// newOrganization returns an organization with the defaults of a fresh one.
func newOrganization(title string, now time.Time) *quire.Organization {
	return &quire.Organization{
		ID:          quire.NewID(),
		Title:       title,
		CreatedAt:   now,
		Type:        "business",
		DefaultRole: quire.RoleRead,
		InviteLinks: true,
		Plan:        "free_2024",
		MergeRules:  quire.MergeRules{Type: quire.MergeRulesNone},
	}
}

// OrgView is an organization with the caller's level in it.
type OrgView struct {
	Org   *quire.Organization
	Level quire.Level
}

// Organizations lists the organizations the caller belongs to.
func (s *Service) Organizations(ctx context.Context, u *quire.User, p quire.Page) (*quire.List[OrgView], error) {
	l, err := s.store.OrganizationsForUser(ctx, u.ID, p)
	if err != nil {
		return nil, err
	}
	out := &quire.List[OrgView]{Next: l.Next, Count: l.Count}
	for _, o := range l.Items {
		m, err := s.store.Member(ctx, o.ID, u.ID)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, OrgView{Org: o, Level: memberLevel(m)})
	}
	return out, nil
}

// memberLevel is the level a membership gives in its organization, by the
// same rule as every other access check.
func memberLevel(m *quire.Member) quire.Level {
	return quire.Facts{OrgID: m.OrgID, Member: true, Disabled: m.Disabled, OrgRole: m.Role}.Level()
}

// Organization returns an organization.
func (s *Service) Organization(ctx context.Context, id string) (*quire.Organization, error) {
	return s.store.Organization(ctx, id)
}

// UpdateOrganization applies a PATCH. A default site must exist in the
// organization.
func (s *Service) UpdateOrganization(ctx context.Context, id string, upd quire.OrganizationUpdate) (*quire.Organization, error) {
	if upd.Title != nil {
		if err := checkTitle("title", *upd.Title, 2, 255); err != nil {
			return nil, err
		}
	}
	if upd.EmailDomains != nil {
		domains, err := normalizeDomains(*upd.EmailDomains)
		if err != nil {
			return nil, err
		}
		upd.EmailDomains = &domains
	}
	if upd.MergeRules != nil {
		if err := checkMergeRules(*upd.MergeRules, false); err != nil {
			return nil, err
		}
		if err := s.checkExpressions(*upd.MergeRules); err != nil {
			return nil, err
		}
	}
	if upd.DefaultSite != nil && *upd.DefaultSite != "" {
		return nil, quire.Invalid("defaultContent", "invalid default content: site %q does not exist in this organization", *upd.DefaultSite)
	}
	var out *quire.Organization
	err := s.store.WithTx(ctx, func(st quire.Store) error {
		was, err := st.Organization(ctx, id)
		if err != nil {
			return err
		}
		if out, err = st.UpdateOrganization(ctx, id, upd); err != nil {
			return err
		}
		return auditOrgSettings(ctx, st, was, out)
	})
	return out, err
}

// normalizeDomains lower-cases, checks and de-duplicates email domains.
func normalizeDomains(in []string) ([]string, error) {
	seen := map[string]bool{}
	out := []string{}
	for i, d := range in {
		d = strings.ToLower(strings.TrimSpace(d))
		if !validDomain(d) {
			return nil, quire.Invalid(fmt.Sprintf("emailDomains[%d]", i), "%q is not a domain name", in[i])
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out, nil
}

// validDomain reports whether d looks like a DNS name with at least two
// labels.
func validDomain(d string) bool {
	if len(d) < 3 || len(d) > 253 || !strings.Contains(d, ".") {
		return false
	}
	for _, label := range strings.Split(d, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// emailDomain returns the domain part of an email address, lower-cased.
func emailDomain(email string) string {
	_, d, _ := strings.Cut(email, "@")
	return strings.ToLower(d)
}

// Join makes the caller a member of an organization that allows their
// email domain, with the organization's default role. Joining an
// organization one already belongs to changes nothing. A caller who may
// not join gets the answer of an organization that does not exist, so
// that the answer does not tell which ids exist.
func (s *Service) Join(ctx context.Context, u *quire.User, orgID string) error {
	return s.store.WithTx(ctx, func(st quire.Store) error {
		org, err := st.Organization(ctx, orgID)
		if quire.IsNotFound(err) {
			return quire.NotFound("organization")
		}
		if err != nil {
			return err
		}
		if _, err := st.Member(ctx, orgID, u.ID); err == nil {
			return nil
		} else if !quire.IsNotFound(err) {
			return err
		}
		if !slices.Contains(org.EmailDomains, emailDomain(u.Email)) {
			return quire.NotFound("organization")
		}
		if err := st.AddMember(ctx, &quire.Member{OrgID: orgID, User: *u, Role: org.DefaultRole, JoinedAt: s.Now()}); err != nil {
			return err
		}
		return auditJoined(ctx, st, orgID, u.ID, org.DefaultRole, "email domain")
	})
}

// OrganizationsForEmailDomain lists the organizations a user with that
// email domain may join. Callers may only look up their own domain.
func (s *Service) OrganizationsForEmailDomain(ctx context.Context, u *quire.User, domain string) ([]OrgView, error) {
	domain = strings.ToLower(domain)
	if domain != emailDomain(u.Email) {
		return nil, quire.Errorf(quire.EFORBIDDEN, "you can only look up the organizations of your own email domain")
	}
	orgs, err := s.store.OrganizationsForEmailDomain(ctx, domain)
	if err != nil {
		return nil, err
	}
	out := make([]OrgView, 0, len(orgs))
	for _, o := range orgs {
		f, err := s.store.OrganizationFacts(ctx, o.ID, u.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, OrgView{Org: o, Level: f.Level()})
	}
	return out, nil
}

// DeleteInvite removes an invite link; it reports whether one existed.
func (s *Service) DeleteInvite(ctx context.Context, orgID, id string) (bool, error) {
	return s.store.DeleteInvite(ctx, orgID, id)
}

// checkMergeRules checks a merge rules configuration; inherit is allowed
// only on spaces.
func checkMergeRules(m quire.MergeRules, space bool) error {
	switch m.Type {
	case quire.MergeRulesInherit:
		if !space {
			return quire.Invalid("mergeRules.type", "inherit is only allowed on spaces")
		}
		fallthrough
	case quire.MergeRulesNone:
		if len(m.Rules) > 0 {
			return quire.Invalid("mergeRules.rules", "only allowed when type is rules")
		}
	case quire.MergeRulesRules:
		for i, r := range m.Rules {
			field := fmt.Sprintf("mergeRules.rules[%d]", i)
			switch r.Rule {
			case quire.RuleSpecificReviewers, quire.RuleOneOfSpecificReviewers, quire.RuleAllowBypass:
				if r.Users == nil {
					return quire.Invalid(field+".users", "required for rule %s", r.Rule)
				}
				if r.Expression != "" {
					return quire.Invalid(field+".expression", "only allowed for rule custom")
				}
			case quire.RuleCustom:
				if r.Users != nil {
					return quire.Invalid(field+".users", "not allowed for rule custom")
				}
			default:
				if r.Users != nil || r.Expression != "" {
					return quire.Invalid(field, "rule %s takes no users or expression", r.Rule)
				}
			}
		}
	default:
		return quire.Invalid("mergeRules.type", "must be one of inherit, rules, none")
	}
	return nil
}
