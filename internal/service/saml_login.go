package service

import (
	"context"
	"crypto/subtle"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/crewjam/saml"

	"quire/internal/quire"
)

// activeProvider returns a provider that can sign in.
func (a *SAML) activeProvider(ctx context.Context, id string) (*quire.SAMLProvider, error) {
	p, err := a.s.store.SAMLProvider(ctx, "", id)
	if err != nil {
		return nil, err
	}
	if !p.Active() {
		return nil, signInRefused(quire.EPRECONDITION, "this identity provider is not fully configured yet",
			errors.New("provider pending: entity id, certificate or SSO URL missing"))
	}
	return p, nil
}

// Metadata returns the service provider's metadata XML for a provider,
// to give to the identity provider.
func (a *SAML) Metadata(ctx context.Context, providerID string, ep SPEndpoints) ([]byte, error) {
	p, err := a.s.store.SAMLProvider(ctx, "", providerID)
	if err != nil {
		return nil, err
	}
	sp, err := a.serviceProvider(ctx, p, ep)
	if err != nil {
		return nil, err
	}
	md := sp.Metadata()
	// Answers come by HTTP-POST only: an artifact would have this server
	// fetch the assertion from the identity provider.
	for i := range md.SPSSODescriptors {
		d := &md.SPSSODescriptors[i]
		var keep []saml.IndexedEndpoint
		for _, e := range d.AssertionConsumerServices {
			if e.Binding == saml.HTTPPostBinding {
				keep = append(keep, e)
			}
		}
		d.AssertionConsumerServices = keep
	}
	out, err := xml.MarshalIndent(md, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), out...), nil
}

// SAMLStart is a sign-in started: where to send the browser, and the
// relay state it must bring back (the HTTP layer keeps it in a cookie, so
// that the answer is only accepted in the browser that asked).
type SAMLStart struct {
	URL        string
	RelayState string
	Expires    time.Time
}

// StartLogin starts a sign-in through a provider: it records an
// authentication request and returns the identity provider's address
// carrying it. redirect is the local path to go to once signed in.
func (a *SAML) StartLogin(ctx context.Context, providerID string, ep SPEndpoints, redirect string) (*SAMLStart, error) {
	p, err := a.activeProvider(ctx, providerID)
	if err != nil {
		return nil, err
	}
	sp, err := a.serviceProvider(ctx, p, ep)
	if err != nil {
		return nil, err
	}
	req, err := sp.MakeAuthenticationRequest(p.SSOURL, saml.HTTPRedirectBinding, saml.HTTPPostBinding)
	if err != nil {
		return nil, err
	}
	relay := randomToken(24)
	u, err := req.Redirect(relay, sp)
	if err != nil {
		return nil, err
	}
	now := a.s.Now()
	r := &quire.SAMLRequest{RelayHash: secretHash(relay), ProviderID: p.ID, RequestID: req.ID,
		Redirect: redirect, ExpiresAt: now.Add(a.requestTTL)}
	if err := a.s.store.PutSAMLRequest(ctx, r, now); err != nil {
		return nil, err
	}
	return &SAMLStart{URL: u.String(), RelayState: relay, Expires: r.ExpiresAt}, nil
}

// SAMLAnswer is what the identity provider posted to the assertion
// consumer service, with the relay state the browser's cookie holds.
type SAMLAnswer struct {
	SAMLResponse string
	RelayState   string
	// CookieRelay is the relay state of the sign-in this browser started,
	// "" if none.
	CookieRelay string
	// UserAgent and Address describe the browser, kept with its session.
	UserAgent string
	Address   string
}

// SAMLLogin is a finished sign-in: the session opened and where to go.
type SAMLLogin struct {
	User     *quire.User
	Session  string
	Expires  time.Time
	Redirect string
}

// FinishLogin checks an identity provider's answer and signs its subject
// in: crewjam/saml checks the signature, issuer, audience, recipient,
// destination, time window and the request answered; the assertion's id
// is then recorded so that it is never accepted again. The user is found
// by email or created, made an SSO member of the organization (with the
// provider's default role and team when new) and given a session.
func (a *SAML) FinishLogin(ctx context.Context, providerID string, ep SPEndpoints, in SAMLAnswer) (*SAMLLogin, error) {
	p, err := a.activeProvider(ctx, providerID)
	if err != nil {
		return nil, err
	}
	sp, err := a.serviceProvider(ctx, p, ep)
	if err != nil {
		return nil, err
	}
	if in.SAMLResponse == "" {
		return nil, signInRefused(quire.EINVALID, "the identity provider's answer is missing", errors.New("no SAMLResponse in the form"))
	}
	now := a.s.Now()
	var (
		possible []string
		redirect string
	)
	if in.RelayState != "" {
		r, err := a.s.store.TakeSAMLRequest(ctx, p.ID, secretHash(in.RelayState), now)
		switch {
		case err == nil:
			if subtle.ConstantTimeCompare([]byte(in.CookieRelay), []byte(in.RelayState)) != 1 {
				return nil, signInRefused(quire.EFORBIDDEN, "this sign-in was started in another browser: start it again here",
					errors.New("relay state does not match the browser's sign-in cookie"))
			}
			// An answer to a request of ours must answer that request,
			// whether or not the provider may start sign-ins itself.
			possible, redirect, sp.AllowIDPInitiated = []string{r.RequestID}, r.Redirect, false
		case !quire.IsNotFound(err):
			return nil, err
		case !p.IDPInitiated:
			return nil, signInRefused(quire.EFORBIDDEN, "this sign-in expired or was already used: start it again",
				errors.New("relay state matches no sign-in in flight"))
		}
	} else if !p.IDPInitiated {
		return nil, signInRefused(quire.EFORBIDDEN, "sign-ins started by the identity provider are not accepted: start from the sign-in link",
			errors.New("IdP-initiated answer to a provider that does not allow it"))
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(in.SAMLResponse))
	if err != nil {
		return nil, signInRefused(quire.EINVALID, "the identity provider's answer is not valid", err)
	}
	acs, _ := url.Parse(ep.ACS)
	assertion, err := sp.ParseXMLResponse(raw, possible, *acs)
	if err != nil {
		why := err
		var ire *saml.InvalidResponseError
		if errors.As(err, &ire) && ire.PrivateErr != nil {
			why = ire.PrivateErr
		}
		return nil, signInRefused(quire.EFORBIDDEN, "the identity provider's answer was refused", why)
	}
	if err := a.s.store.UseSAMLAssertion(ctx, p.ID, assertion.ID, assertionExpiry(assertion), now); err != nil {
		if quire.ErrorCode(err) == quire.ECONFLICT {
			return nil, signInRefused(quire.EFORBIDDEN, "the identity provider's answer was refused",
				errors.New("assertion "+assertion.ID+" was used before (replay)"))
		}
		return nil, err
	}
	email, name := assertionSubject(assertion)
	if !validEmail(email) {
		return nil, signInRefused(quire.EFORBIDDEN, "the identity provider did not give an email address",
			errors.New("no email in the NameID or the attributes"))
	}
	return a.signIn(ctx, p, email, name, redirect, in)
}

// assertionExpiry is when the library would refuse the assertion anyway,
// after which its id need not be kept.
func assertionExpiry(as *saml.Assertion) time.Time {
	t := as.IssueInstant.Add(saml.MaxIssueDelay)
	later := func(v time.Time) {
		if v.After(t) {
			t = v
		}
	}
	if as.Conditions != nil {
		later(as.Conditions.NotOnOrAfter.Add(saml.MaxClockSkew))
	}
	if as.Subject != nil {
		for _, c := range as.Subject.SubjectConfirmations {
			if c.SubjectConfirmationData != nil {
				later(c.SubjectConfirmationData.NotOnOrAfter.Add(saml.MaxClockSkew))
			}
		}
	}
	return t.Add(time.Minute)
}

// Attribute names identity providers give emails and names under.
var (
	emailAttributes = []string{"email", "mail", "emailAddress", "urn:oid:0.9.2342.19200300.100.1.3",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"}
	nameAttributes = []string{"displayName", "cn", "name", "urn:oid:2.16.840.1.113730.3.1.241", "urn:oid:2.5.4.3",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name"}
)

// assertionSubject reads the subject's email (the NameID when it is one,
// else an email attribute) and display name.
func assertionSubject(as *saml.Assertion) (email, name string) {
	attrs := map[string]string{}
	for _, st := range as.AttributeStatements {
		for _, at := range st.Attributes {
			for _, v := range at.Values {
				if v.Value != "" {
					for _, key := range []string{at.Name, at.FriendlyName} {
						if _, seen := attrs[key]; key != "" && !seen {
							attrs[key] = strings.TrimSpace(v.Value)
						}
					}
					break
				}
			}
		}
	}
	if as.Subject != nil && as.Subject.NameID != nil && validEmail(strings.TrimSpace(as.Subject.NameID.Value)) {
		email = strings.TrimSpace(as.Subject.NameID.Value)
	}
	for _, k := range emailAttributes {
		if email == "" && validEmail(attrs[k]) {
			email = attrs[k]
		}
	}
	for _, k := range nameAttributes {
		if name == "" {
			name = attrs[k]
		}
	}
	if name == "" && attrs["givenName"] != "" {
		name = strings.TrimSpace(attrs["givenName"] + " " + attrs["sn"])
	}
	if name == "" {
		name, _, _ = strings.Cut(email, "@")
	}
	return email, clip(name, 64)
}

// clip cuts s to at most n characters.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:n]))
}

// mayClaim refuses to sign an existing user who is not a member of the
// provider's organization in through it, unless their email's domain is
// one of the organization's: an organization's identity provider speaks
// for its own people, not for accounts elsewhere on the server.
func (a *SAML) mayClaim(ctx context.Context, st quire.Store, p *quire.SAMLProvider, u *quire.User) error {
	org, err := st.Organization(ctx, p.OrgID)
	if err != nil {
		return err
	}
	if slices.Contains(org.EmailDomains, emailDomain(u.Email)) {
		return nil
	}
	return signInRefused(quire.EFORBIDDEN, "an account with this email address exists and is not a member of this organization: ask an admin to add it",
		errors.New("existing user "+u.ID+" outside the organization and its email domains"))
}

// signIn finds or creates the user, makes them an SSO member of the
// provider's organization and opens their session, in one transaction. A
// member keeps their role; a new one gets the provider's default role and
// team. A disabled member is refused.
func (a *SAML) signIn(ctx context.Context, p *quire.SAMLProvider, email, name, redirect string, origin SAMLAnswer) (*SAMLLogin, error) {
	var out SAMLLogin
	err := a.s.store.WithTx(ctx, func(st quire.Store) error {
		now := a.s.Now()
		u, err := st.UserByEmail(ctx, email)
		existing := err == nil
		if quire.IsNotFound(err) {
			u = &quire.User{ID: quire.NewID(), DisplayName: name, Email: email, CreatedAt: now}
			err = st.CreateUser(ctx, u)
		}
		if err != nil {
			return err
		}
		m, err := st.Member(ctx, p.OrgID, u.ID)
		if existing && quire.IsNotFound(err) {
			if err := a.mayClaim(ctx, st, p, u); err != nil {
				return err
			}
		}
		switch {
		case quire.IsNotFound(err):
			m = &quire.Member{OrgID: p.OrgID, User: *u, Role: p.DefaultRole, SSO: true, JoinedAt: now}
			if err := st.AddMember(ctx, m); err != nil {
				return err
			}
			if err := auditJoined(ctx, st, p.OrgID, u.ID, p.DefaultRole, "single sign-on"); err != nil {
				return err
			}
			if p.DefaultTeam != "" {
				if err := st.JoinTeam(ctx, p.OrgID, p.DefaultTeam, u.ID); err != nil && !quire.IsNotFound(err) {
					return err
				}
			}
		case err != nil:
			return err
		case m.Disabled:
			return signInRefused(quire.EFORBIDDEN, "your membership of this organization is disabled",
				errors.New("disabled member "+u.ID+" signed in"))
		case !m.SSO:
			if _, err := st.SetMemberSSO(ctx, p.OrgID, u.ID, true); err != nil {
				return err
			}
		}
		secret, expires, err := a.s.openSession(ctx, st, u.ID, SessionOrigin{Method: quire.SessionSAML,
			ProviderID: p.ID, OrgID: p.OrgID, UserAgent: origin.UserAgent, Address: origin.Address})
		if err != nil {
			return err
		}
		out = SAMLLogin{User: u, Session: secret, Expires: expires, Redirect: redirect}
		return nil
	})
	if err != nil {
		return nil, err
	}
	a.log.InfoContext(ctx, "SAML sign-in", "provider", p.ID, "organization", p.OrgID, "user", out.User.ID)
	return &out, nil
}
