package app

import (
	"net/http"
	"time"

	"quire/internal/quire"
)

// accountPage is what the account settings page shows.
type accountPage struct {
	User *quire.User
	// DisplayName is the name in the profile form, as typed when it was
	// refused; ProfileError says why.
	DisplayName  string
	ProfileError string
	Sessions     []sessionRow
	Tokens       []tokenRow
	// TokenName is the name in the new token form, as typed when it was
	// refused; TokenError says why.
	TokenName  string
	TokenError string
	// NewToken is the token just created, shown this once, and
	// NewTokenName its name.
	NewToken     string
	NewTokenName string
	// Notice says what the last action did.
	Notice string
	// Notifications are the person's preference of each kind.
	Notifications []quire.NotificationPreference
}

// sessionRow is a session as the list shows it.
type sessionRow struct {
	ID       string
	Device   string
	Method   string
	Address  string
	LastSeen string
	Seen     time.Time
	Created  string
	Current  bool
}

// tokenRow is an API token as the list shows it: never its secret.
type tokenRow struct {
	ID       string
	Name     string
	Created  string
	LastUsed string
}

// accountNotice is the message an action leaves for the page it goes
// back to, by key, so that the address carries no text of its own.
func accountNotice(key string) string {
	switch key {
	case "profile":
		return "Your profile was saved."
	case "session":
		return "The session was signed out."
	case "others":
		return "Every other session was signed out."
	case "notifications":
		return "Your notification preferences were saved."
	case "token-revoked":
		return "The token was revoked. Requests using it are refused from now on."
	}
	return ""
}

// account draws the account settings page.
func (a *App) account(w http.ResponseWriter, r *http.Request) error {
	u := userFrom(r.Context())
	return a.renderAccount(w, r, http.StatusOK, &accountPage{User: u, DisplayName: u.DisplayName,
		Notice: accountNotice(r.URL.Query().Get("done"))})
}

// renderAccount loads the sessions and tokens into p and draws the page.
func (a *App) renderAccount(w http.ResponseWriter, r *http.Request, status int, p *accountPage) error {
	ctx := r.Context()
	u := userFrom(ctx)
	current := ""
	if ss := sessionFrom(ctx); ss != nil {
		current = ss.ID
	}
	sessions, err := a.svc.ListSessions(ctx, u, current)
	if err != nil {
		return err
	}
	now := a.now()
	for _, s := range sessions {
		p.Sessions = append(p.Sessions, sessionRow{ID: s.ID, Device: deviceName(s.UserAgent), Method: methodName(s.Method),
			Address: s.Address, LastSeen: ago(s.LastSeenAt, now), Seen: s.LastSeenAt, Created: s.CreatedAt.Format(dateFormat),
			Current: s.Current})
	}
	tokens, err := a.svc.ListTokens(ctx, u)
	if err != nil {
		return err
	}
	for _, t := range tokens {
		row := tokenRow{ID: t.ID, Name: t.Name, Created: t.CreatedAt.Format(dateFormat), LastUsed: "Never"}
		if !t.LastUsedAt.IsZero() {
			row.LastUsed = ago(t.LastUsedAt, now)
		}
		p.Tokens = append(p.Tokens, row)
	}
	if p.Notifications, err = a.svc.NotificationPreferences(ctx, u); err != nil {
		return err
	}
	sh, err := a.shell(r, "")
	if err != nil {
		return err
	}
	sh.User, sh.Title = p.User, "Account settings"
	return a.render(w, r, status, "account", sh, p)
}

// accountProfile saves the profile form.
func (a *App) accountProfile(w http.ResponseWriter, r *http.Request) error {
	u := userFrom(r.Context())
	name := r.PostFormValue("displayName")
	if _, err := a.svc.SetDisplayName(r.Context(), u, name); err != nil {
		if _, msg, ok := formError(err); ok {
			return a.renderAccount(w, r, http.StatusUnprocessableEntity,
				&accountPage{User: u, DisplayName: name, ProfileError: "Display name " + msg + "."})
		}
		return err
	}
	http.Redirect(w, r, "/app/account?done=profile#profile", http.StatusSeeOther)
	return nil
}

// accountSessionRevoke signs out one of the person's sessions.
func (a *App) accountSessionRevoke(w http.ResponseWriter, r *http.Request) error {
	if err := a.svc.RevokeSession(r.Context(), userFrom(r.Context()), r.PathValue("sessionId")); err != nil {
		return err
	}
	http.Redirect(w, r, "/app/account?done=session#sessions", http.StatusSeeOther)
	return nil
}

// accountSessionsRevokeOthers signs out every session of the person but
// this one.
func (a *App) accountSessionsRevokeOthers(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	ss := sessionFrom(ctx)
	if ss == nil {
		return quire.Errorf(quire.EUNAUTHORIZED, "sign in again")
	}
	if _, err := a.svc.EndUserSessions(ctx, userFrom(ctx).ID, ss.ID); err != nil {
		return err
	}
	http.Redirect(w, r, "/app/account?done=others#sessions", http.StatusSeeOther)
	return nil
}

// accountTokenCreate creates a personal API token and shows it this once:
// the answer is the page itself, never stored (Cache-Control: no-store).
func (a *App) accountTokenCreate(w http.ResponseWriter, r *http.Request) error {
	u := userFrom(r.Context())
	name := r.PostFormValue("name")
	token, t, err := a.svc.CreatePersonalToken(r.Context(), u, name)
	if err != nil {
		if _, msg, ok := formError(err); ok {
			return a.renderAccount(w, r, http.StatusUnprocessableEntity,
				&accountPage{User: u, DisplayName: u.DisplayName, TokenName: name, TokenError: "Name " + msg + "."})
		}
		return err
	}
	return a.renderAccount(w, r, http.StatusCreated, &accountPage{User: u, DisplayName: u.DisplayName,
		NewToken: token, NewTokenName: t.Name})
}

// accountTokenRevoke revokes one of the person's API tokens.
func (a *App) accountTokenRevoke(w http.ResponseWriter, r *http.Request) error {
	if err := a.svc.RevokeToken(r.Context(), userFrom(r.Context()), r.PathValue("tokenId")); err != nil {
		return err
	}
	http.Redirect(w, r, "/app/account?done=token-revoked#tokens", http.StatusSeeOther)
	return nil
}
