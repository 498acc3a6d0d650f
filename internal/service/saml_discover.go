package service

import (
	"context"
	"strings"

	"quire/internal/quire"
)

// SAMLChoice is an identity provider someone may sign in through: an
// active provider of an organization that allows their email domain.
type SAMLChoice struct {
	ProviderID string
	Label      string
	OrgID      string
	OrgTitle   string
}

// maxSAMLChoices bounds the providers offered for one email domain.
const maxSAMLChoices = 20

// ProvidersForEmail lists the active providers of the organizations that
// allow the email's domain, for a sign-in page that asks for an email
// and sends the browser to its organization's identity provider. It
// tells no more than the domain's organizations' names and their
// providers' labels, which the sign-in buttons would show anyway. A
// malformed email is EINVALID naming the field email.
func (a *SAML) ProvidersForEmail(ctx context.Context, email string) ([]SAMLChoice, error) {
	email = strings.TrimSpace(email)
	if !validEmail(email) {
		return nil, quire.Invalid("email", "must be an email address, such as ada@example.com")
	}
	orgs, err := a.s.store.OrganizationsForEmailDomain(ctx, emailDomain(email))
	if err != nil {
		return nil, err
	}
	var out []SAMLChoice
	for _, org := range orgs {
		list, err := a.s.store.SAMLProviders(ctx, org.ID, quire.Page{Limit: maxSAMLChoices})
		if err != nil {
			return nil, err
		}
		for _, p := range list.Items {
			if p.Active() && len(out) < maxSAMLChoices {
				out = append(out, SAMLChoice{ProviderID: p.ID, Label: p.Label, OrgID: org.ID, OrgTitle: org.Title})
			}
		}
	}
	return out, nil
}
