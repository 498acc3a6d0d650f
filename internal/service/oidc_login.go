package service

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"quire/internal/quire"
)

// OIDCStart is a sign-in started: where to send the browser, and the
// state it must bring back (the HTTP layer keeps it in a short-lived
// cookie, so that the answer is only accepted in the browser that asked).
type OIDCStart struct {
	URL     string
	State   string
	Expires time.Time
}

// StartLogin starts a sign-in: it records the state's hash with a nonce
// and a PKCE verifier and returns the issuer's authorization address.
// redirect is the local path to go to once signed in.
func (o *OIDC) StartLogin(ctx context.Context, redirect string) (*OIDCStart, error) {
	p, err := o.discover(ctx)
	if err != nil {
		return nil, err
	}
	state, nonce, verifier := randomToken(24), randomToken(24), oauth2.GenerateVerifier()
	now := o.s.Now()
	r := &quire.OIDCRequest{StateHash: secretHash(state), Nonce: nonce, Verifier: verifier, Redirect: redirect,
		ExpiresAt: now.Add(o.requestTTL)}
	if err := o.s.store.PutOIDCRequest(ctx, r, now); err != nil {
		return nil, err
	}
	u := o.oauth2Config(p).AuthCodeURL(state, oidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier))
	return &OIDCStart{URL: u, State: state, Expires: r.ExpiresAt}, nil
}

// OIDCAnswer is what the issuer sent the browser back with, and the state
// of the sign-in this browser started (its cookie).
type OIDCAnswer struct {
	Code  string
	State string
	// Error and ErrorDescription are the issuer's refusal, if it refused.
	Error            string
	ErrorDescription string
	// CookieState is the state of the sign-in this browser started, ""
	// if none.
	CookieState string
}

// OIDCLogin is a finished sign-in: who signed in and where to go. The
// caller opens the session.
type OIDCLogin struct {
	User *quire.User
	// Joined lists the organizations the sign-in made them a member of.
	Joined   []string
	Redirect string
}

// oidcClaims are the ID token claims a sign-in reads.
type oidcClaims struct {
	Email             string          `json:"email"`
	EmailVerified     json.RawMessage `json:"email_verified"`
	Name              string          `json:"name"`
	PreferredUsername string          `json:"preferred_username"`
}

// verified reads email_verified, which some issuers send as a string.
func (c oidcClaims) verified() bool {
	var b bool
	if json.Unmarshal(c.EmailVerified, &b) == nil {
		return b
	}
	var s string
	return json.Unmarshal(c.EmailVerified, &s) == nil && strings.EqualFold(s, "true")
}

// FinishLogin checks the issuer's answer and finds whom it signs in: the
// state must be the one this browser started and not used before; the
// code is exchanged with its PKCE verifier; go-oidc checks the ID token's
// signature, issuer, audience and expiry, and the nonce must be the
// sign-in's. The email must be verified by the issuer. An existing
// account with that email signs in; a person without one gets an account
// only if an organization allows their email domain, and joins those
// organizations with their default role.
func (o *OIDC) FinishLogin(ctx context.Context, in OIDCAnswer) (*OIDCLogin, error) {
	if in.Error != "" {
		msg := "the identity provider refused the sign-in"
		if in.Error == "access_denied" {
			msg = "the sign-in was cancelled at the identity provider"
		}
		return nil, signInRefused(quire.EFORBIDDEN, msg, errors.New("issuer error "+in.Error+": "+in.ErrorDescription))
	}
	if in.State == "" || in.Code == "" {
		return nil, signInRefused(quire.EINVALID, "the identity provider's answer lacks the code or the state",
			errors.New("callback without code or state"))
	}
	if subtle.ConstantTimeCompare([]byte(in.CookieState), []byte(in.State)) != 1 {
		return nil, signInRefused(quire.EFORBIDDEN, "this sign-in was started in another browser or has expired: start it again here",
			errors.New("state does not match the browser's sign-in cookie"))
	}
	now := o.s.Now()
	r, err := o.s.store.TakeOIDCRequest(ctx, secretHash(in.State), now)
	if quire.IsNotFound(err) {
		return nil, signInRefused(quire.EFORBIDDEN, "this sign-in expired or was already used: start it again",
			errors.New("state matches no sign-in in flight"))
	}
	if err != nil {
		return nil, err
	}
	p, err := o.discover(ctx)
	if err != nil {
		return nil, err
	}
	cctx := o.client(ctx)
	tok, err := o.oauth2Config(p).Exchange(cctx, in.Code, oauth2.VerifierOption(r.Verifier))
	if err != nil {
		return nil, signInRefused(quire.EFORBIDDEN, "the identity provider did not accept the sign-in code: start again", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return nil, signInRefused(quire.EFORBIDDEN, "the identity provider gave no ID token", errors.New("token response without id_token"))
	}
	idt, err := p.VerifierContext(cctx, &oidc.Config{ClientID: o.cfg.ClientID, Now: o.s.Now}).Verify(cctx, raw)
	if err != nil {
		return nil, signInRefused(quire.EFORBIDDEN, "the identity provider's ID token was refused", err)
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(r.Nonce)) != 1 {
		return nil, signInRefused(quire.EFORBIDDEN, "the identity provider's ID token was refused",
			errors.New("ID token nonce does not match the sign-in's"))
	}
	var c oidcClaims
	if err := idt.Claims(&c); err != nil {
		return nil, signInRefused(quire.EFORBIDDEN, "the identity provider's ID token was refused", err)
	}
	email := strings.TrimSpace(c.Email)
	if !validEmail(email) {
		return nil, signInRefused(quire.EFORBIDDEN, "the identity provider did not give an email address: it must share the email scope",
			errors.New("no valid email claim (subject "+idt.Subject+")"))
	}
	if !c.verified() {
		return nil, signInRefused(quire.EFORBIDDEN, "your email address is not verified at the identity provider: verify it there, then sign in again",
			errors.New("email_verified is not true for "+email))
	}
	name := strings.TrimSpace(c.Name)
	if name == "" {
		name = strings.TrimSpace(c.PreferredUsername)
	}
	if name == "" {
		name, _, _ = strings.Cut(email, "@")
	}
	login, err := o.signIn(ctx, email, clip(name, 64))
	if err != nil {
		return nil, err
	}
	login.Redirect = r.Redirect
	o.log.InfoContext(ctx, "OIDC sign-in", "issuer", o.cfg.Issuer, "subject", idt.Subject, "user", login.User.ID,
		"joined", login.Joined)
	return login, nil
}

// signIn finds the user with the email, or creates one when organizations
// allow the email's domain and makes them members of those that do not
// require single sign-on (theirs is another identity provider), with each
// one's default role. Anyone else is refused: the issuer vouches for an
// email address, not for a place on this server.
func (o *OIDC) signIn(ctx context.Context, email, name string) (*OIDCLogin, error) {
	var out OIDCLogin
	err := o.s.store.WithTx(ctx, func(st quire.Store) error {
		u, err := st.UserByEmail(ctx, email)
		if err == nil {
			out.User = u
			return nil
		}
		if !quire.IsNotFound(err) {
			return err
		}
		orgs, err := domainOrganizations(ctx, st, email)
		if err != nil {
			return err
		}
		if len(orgs) == 0 {
			return signInRefused(quire.EFORBIDDEN,
				"there is no account for "+email+" here, and no organization lets people of its domain join: ask an admin of your organization to invite you",
				errors.New("no user and no organization allowing domain "+emailDomain(email)))
		}
		now := o.s.Now()
		u = &quire.User{ID: quire.NewID(), DisplayName: name, Email: email, CreatedAt: now}
		if err := st.CreateUser(ctx, u); err != nil {
			return err
		}
		joined, err := joinOrganizations(ctx, st, u, orgs, now)
		if err != nil {
			return err
		}
		out.Joined = append(out.Joined, joined...)
		out.User = u
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}
