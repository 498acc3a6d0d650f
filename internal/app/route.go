package app

import (
	"context"
	"net/http"
	"net/url"

	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/web"
)

// handlerFunc is an app handler: it writes its answer or returns the
// error for fail to draw.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// row is one line of the route table.
type row struct {
	id, method, path string
	access           access
	h                handlerFunc
}

// access is what a route needs of its caller.
type access struct {
	// public serves the route to anyone, signed in or not.
	public bool
	// scope and min are the subject and the least level on it; param
	// is the path parameter naming the subject.
	scope service.Scope
	min   quire.Level
	param string
	// limit is the rate limit the route's requests count against, per
	// client address; the server applies it before the route runs.
	limit service.RateClass
}

// public serves a route to anyone.
func public() access { return access{public: true} }

// limited makes a route's requests count against a rate limit.
func (a access) limited(c service.RateClass) access {
	a.limit = c
	return a
}

// signedIn serves a route to any signed-in person.
func signedIn() access { return access{scope: service.ScopeNone} }

// onOrg needs level min on the organization of {organizationId}.
func onOrg(min quire.Level) access {
	return access{scope: service.ScopeOrganization, min: min, param: "organizationId"}
}

// onSpace needs level min on the space of {spaceId}.
func onSpace(min quire.Level) access {
	return access{scope: service.ScopeSpace, min: min, param: "spaceId"}
}

// onCollection needs level min on the collection of {collectionId}.
func onCollection(min quire.Level) access {
	return access{scope: service.ScopeCollection, min: min, param: "collectionId"}
}

// Context keys of what the wrapper learned about the request.
type (
	userKey    struct{}
	sessionKey struct{}
	levelKey   struct{}
	subjectKey struct{}
)

// userFrom returns the signed-in person, nil on a public route without a
// session.
func userFrom(ctx context.Context) *quire.User {
	u, _ := ctx.Value(userKey{}).(*quire.User)
	return u
}

// sessionFrom returns the session the request came with, nil without one.
func sessionFrom(ctx context.Context) *quire.Session {
	s, _ := ctx.Value(sessionKey{}).(*quire.Session)
	return s
}

// levelFrom returns the caller's level on the route's subject.
func levelFrom(ctx context.Context) quire.Level {
	l, _ := ctx.Value(levelKey{}).(quire.Level)
	return l
}

// subjectFrom returns the subject the access check loaded, when it is a T.
func subjectFrom[T any](ctx context.Context) (T, bool) {
	v, ok := ctx.Value(subjectKey{}).(T)
	return v, ok
}

// wrap turns a row into its handler: cross-origin protection on writes,
// the session, the access check, then the row's handler, whose error
// fail draws.
func (a *App) wrap(rt row) http.Handler {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		ctx := r.Context()
		if c, err := r.Cookie(web.SessionCookie); err == nil && c.Value != "" {
			u, ss, err := a.svc.AuthenticateSession(ctx, c.Value)
			switch {
			case err == nil:
				ctx = context.WithValue(ctx, userKey{}, u)
				ctx = context.WithValue(ctx, sessionKey{}, ss)
				ctx = service.WithSession(ctx, ss)
				ctx = service.WithActor(ctx, u)
			case quire.ErrorCode(err) == quire.EUNAUTHORIZED:
				// An ended or expired session: forget it.
				http.SetCookie(w, web.SessionCookieFor("", a.now(), a.secure))
			default:
				a.fail(w, r, err)
				return
			}
		}
		r = r.WithContext(ctx)
		u := userFrom(ctx)
		if !rt.access.public {
			if u == nil {
				a.toSignIn(w, r)
				return
			}
			if rt.access.scope != service.ScopeNone {
				level, subject, err := a.svc.Access(ctx, u, rt.access.scope, r.PathValue(rt.access.param))
				if err != nil {
					a.fail(w, r, err)
					return
				}
				if level < rt.access.scope.Visible() {
					a.fail(w, r, quire.NotFound(rt.access.scope.String()))
					return
				}
				if level < rt.access.min {
					a.fail(w, r, quire.Errorf(quire.EFORBIDDEN, "your role here does not allow this"))
					return
				}
				ctx = context.WithValue(ctx, levelKey{}, level)
				ctx = context.WithValue(ctx, subjectKey{}, subject)
				r = r.WithContext(ctx)
			}
		}
		if err := rt.h(w, r); err != nil {
			a.fail(w, r, err)
		}
	})
	return a.csrf.Handler(h)
}

// toSignIn sends a person who is not signed in to the sign-in page, to
// come back where they were going.
func (a *App) toSignIn(w http.ResponseWriter, r *http.Request) {
	next := r.URL.Path
	if r.Method != http.MethodGet || next == "/app/" {
		next = ""
	} else if r.URL.RawQuery != "" {
		next += "?" + r.URL.RawQuery
	}
	target := signInPath
	if next != "" {
		target += "?next=" + url.QueryEscape(next)
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}
