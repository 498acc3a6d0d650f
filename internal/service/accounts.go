package service

import (
	"context"
	"crypto/sha256"
	"log/slog"
	"strings"
	"sync"
	"time"

	"quire/internal/quire"
)

// How long the one-time account links last.
const (
	SetupLinkLifetime   = 24 * time.Hour
	ResetLinkLifetime   = time.Hour
	ConfirmLinkLifetime = 24 * time.Hour
)

// The limits on failed sign-ins, counted in the database so that every
// replica applies the same: per account and per client address within a
// sliding window.
const (
	SignInWindow              = 15 * time.Minute
	MaxSignInFailuresAccount  = 5
	MaxSignInFailuresAddress  = 20
	maxConcurrentPasswordHash = 4
)

// AccountsConfig configures password accounts.
type AccountsConfig struct {
	// BaseURL is the absolute URL of the server, starting the links
	// handed out.
	BaseURL string
	// Mailer sends reset and confirmation links; nil sends no email: a
	// forgotten password is then reset by an administrator, and sign-up
	// through an email domain is not offered.
	Mailer Mailer
	// Clock replaces the service's clock (tests).
	Clock func() time.Time
	// Params are the argon2id parameters of new hashes; zero takes
	// DefaultPasswordParams.
	Params PasswordParams
	// Logger logs email that could not be sent; nil takes the default.
	Logger *slog.Logger
}

// Accounts signs users in with an email and a password, and hands out the
// one-time links that set passwords and let people join.
type Accounts struct {
	svc     *Service
	store   quire.Store
	mailer  Mailer
	now     func() time.Time
	baseURL string
	params  PasswordParams
	log     *slog.Logger
	// hashing bounds the argon2id computations running at once: each
	// holds Params.Memory.
	hashing chan struct{}
	// dummy is a hash checked when there is no user or no password, so
	// that the answer takes as long as a wrong password's.
	dummyOnce sync.Once
	dummy     string
	// mail counts email being sent in the background (tests wait).
	mail sync.WaitGroup
}

// NewAccounts returns the password accounts over svc's store.
func NewAccounts(svc *Service, cfg AccountsConfig) *Accounts {
	a := &Accounts{svc: svc, store: svc.store, mailer: cfg.Mailer, now: cfg.Clock,
		baseURL: strings.TrimRight(cfg.BaseURL, "/"), params: cfg.Params, log: cfg.Logger,
		hashing: make(chan struct{}, maxConcurrentPasswordHash)}
	if a.now == nil {
		a.now = svc.now
	}
	if a.params == (PasswordParams{}) {
		a.params = DefaultPasswordParams()
	}
	if a.log == nil {
		a.log = svc.log
	}
	return a
}

// Now returns the accounts' current time at millisecond precision, UTC.
func (a *Accounts) Now() time.Time { return a.now().UTC().Truncate(time.Millisecond) }

// MailEnabled reports whether email can be sent: then forgotten passwords
// are reset by email and sign-up through an email domain is offered.
func (a *Accounts) MailEnabled() bool { return a.mailer != nil }

// WaitMail waits for the email being sent in the background.
func (a *Accounts) WaitMail() { a.mail.Wait() }

// hash hashes a password, waiting for a turn.
func (a *Accounts) hash(ctx context.Context, pw string) (string, error) {
	if err := a.acquire(ctx); err != nil {
		return "", err
	}
	defer func() { <-a.hashing }()
	return hashPassword(pw, a.params), nil
}

// verify checks a password against an encoded hash, waiting for a turn.
// An empty encoded checks against a dummy hash and fails.
func (a *Accounts) verify(ctx context.Context, encoded, pw string) (ok, stale bool, err error) {
	a.dummyOnce.Do(func() { a.dummy = hashPassword("not a password of anyone", a.params) })
	if err := a.acquire(ctx); err != nil {
		return false, false, err
	}
	defer func() { <-a.hashing }()
	if encoded == "" {
		checkPassword(a.dummy, pw, a.params)
		return false, false, nil
	}
	ok, stale = checkPassword(encoded, pw, a.params)
	return ok, stale, nil
}

func (a *Accounts) acquire(ctx context.Context) error {
	select {
	case a.hashing <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// CheckPasswordStrength returns the EINVALID error, naming field, of a
// password below the floor for that email, or nil.
func (a *Accounts) CheckPasswordStrength(field, pw, email string) error {
	return checkPasswordStrength(field, pw, email)
}

// SignedIn is a session opened for a user: hand the secret to the browser.
type SignedIn struct {
	User    *quire.User
	Secret  string
	Expires time.Time
	// OrgID is the organization the user just joined, if any.
	OrgID string
}

// Client is where a request comes from.
type Client struct {
	Address   string
	UserAgent string
}

// open opens a password session for u.
func (a *Accounts) open(ctx context.Context, u *quire.User, c Client) (*SignedIn, error) {
	secret, exp, err := a.svc.OpenSession(ctx, u.ID, SessionOrigin{Method: quire.SessionPassword, UserAgent: c.UserAgent, Address: c.Address})
	if err != nil {
		return nil, err
	}
	return &SignedIn{User: u, Secret: secret, Expires: exp}, nil
}

// newLinkSecret returns a fresh link secret and the hash stored of it.
func newLinkSecret() (string, []byte) {
	secret := randomToken(32)
	return secret, linkHash(secret)
}

// linkHash is what is stored of a link secret.
func linkHash(secret string) []byte {
	h := sha256.Sum256([]byte("quire account link\x00" + secret))
	return h[:]
}

// validSecret reports whether s could be a link secret at all.
func validSecret(s string) bool { return s != "" && len(s) <= 128 }

// createLink stores a one-time link and returns its secret.
func (a *Accounts) createLink(ctx context.Context, st quire.Store, purpose quire.AccountLinkPurpose, userID, email string, life time.Duration) (string, error) {
	secret, h := newLinkSecret()
	now := a.Now()
	err := st.CreateAccountLink(ctx, &quire.AccountLink{Hash: h, Purpose: purpose, UserID: userID, Email: email,
		CreatedAt: now, ExpiresAt: now.Add(life)})
	return secret, err
}

// link returns the absolute URL of an app path.
func (a *Accounts) link(path string) string { return a.baseURL + path }

// expiredLink is the answer to a link unknown, used or expired.
func expiredLink() error {
	return quire.Errorf(quire.ENOTFOUND, "this link is not valid: it was used already or it expired")
}

// send sends an email in the background, so that the answer takes as
// long whether or not one is sent; failures are logged.
func (a *Accounts) send(to, subject, body string) {
	a.mail.Add(1)
	go func() {
		defer a.mail.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if err := a.mailer.Send(ctx, to, subject, body); err != nil {
			a.log.Error("sending email", "subject", subject, "err", err)
		}
	}()
}

// normalEmail trims an email address and lowers it, for comparisons and
// rate-limit keys.
func normalEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }
