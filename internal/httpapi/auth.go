package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"quire/internal/httpmw"
	"quire/internal/quire"
	"quire/internal/service"
)

type ctxKey int

const (
	userKey ctxKey = iota
	levelKey
	subjectKey
)

// authenticate resolves the bearer token of every API request, except the
// OpenAPI document, the operations the route table declares public
// (signed download links) and the browser endpoints under /sso/, and
// refuses the request with 401 when it is missing or invalid (a request
// without a token to an address no route declares gets that 404). A request
// without an Authorization header may authenticate with the session
// cookie a SAML sign-in set; its writes must then come from this server's
// origin.
//
// It also applies the API's rate limits: an authenticated request counts
// against its credential's limit, any other request to /v1/ (no
// credential, a failed one, the OpenAPI document, signed download links)
// against its client address's.
func (s *Server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/sso/") || strings.HasPrefix(r.URL.Path, "/sites/") || strings.HasPrefix(r.URL.Path, "/app/") {
			next.ServeHTTP(w, r)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/v1/openapi.") || s.public(r) {
			if apiPath(r.URL.Path) && !s.limitAddress(w, r) {
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		ctx := r.Context()
		var (
			u     *quire.User
			ss    *quire.Session
			token string
			err   error
		)
		if c, cerr := r.Cookie(SessionCookie); cerr == nil && r.Header.Get("Authorization") == "" {
			if !s.sameOrigin(r) {
				writeError(w, crossSiteRefused())
				return
			}
			u, ss, err = s.svc.AuthenticateSession(ctx, c.Value)
			ctx = service.WithSession(ctx, ss)
		} else {
			var ok bool
			token, ok = strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			token = strings.TrimSpace(token)
			if !ok || token == "" {
				if !s.limitAddress(w, r) {
					return
				}
				if s.undeclared(r) {
					// No route: 404 (or 405) whoever asks.
					next.ServeHTTP(w, r)
					return
				}
				writeError(w, newAPIError(http.StatusUnauthorized, "missing API token: send Authorization: Bearer <token>"))
				return
			}
			u, err = s.svc.Authenticate(ctx, token)
		}
		if err != nil {
			if quire.ErrorCode(err) == quire.EUNAUTHORIZED && !s.limitAddress(w, r) {
				return
			}
			writeError(w, s.toAPIError(err))
			return
		}
		if !s.limitCaller(w, r, token, u, ss) {
			return
		}
		inner := r.WithContext(context.WithValue(service.WithActor(ctx, u), userKey, u))
		next.ServeHTTP(w, inner)
		// The mux set the matched pattern on the inner request only; pass it
		// out so that logs and metrics name the route, not the path.
		httpmw.SetRoute(r.Context(), inner.Pattern)
	})
}

// publicRoute is an operation of the route table served without a token.
type publicRoute struct {
	// prefix is the literal start of the operation's path, which every
	// request it serves begins with.
	prefix string
	// pattern is the operation's pattern in the mux.
	pattern string
}

// addPublic lets requests to the route of method and path through
// without a token.
func (s *Server) addPublic(method, path string) {
	prefix, _, _ := strings.Cut(path, "{")
	s.publicRoutes = append(s.publicRoutes, publicRoute{prefix: prefix, pattern: method + " " + path})
}

// public reports whether r goes to an operation the route table declares
// public (signedLink): a cheap prefix test, then the mux's own match.
func (s *Server) public(r *http.Request) bool {
	for _, p := range s.publicRoutes {
		if strings.HasPrefix(r.URL.Path, p.prefix) {
			if _, pattern := s.mux.Handler(r); pattern == p.pattern {
				return true
			}
		}
	}
	return false
}

// undeclared reports whether r goes to no route of the table.
func (s *Server) undeclared(r *http.Request) bool {
	_, pattern := s.mux.Handler(r)
	return pattern == undeclaredPattern
}

// writeError writes an error response outside the framework.
func writeError(w http.ResponseWriter, e *apiError) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.Body.Code)
	_ = json.NewEncoder(w).Encode(e)
}

// userFrom returns the authenticated caller.
func userFrom(ctx context.Context) *quire.User {
	u, _ := ctx.Value(userKey).(*quire.User)
	return u
}

// levelFrom returns the caller's level on the operation's subject, as
// resolved by the access check.
func levelFrom(ctx context.Context) quire.Level {
	l, _ := ctx.Value(levelKey).(quire.Level)
	return l
}

// subjectFrom returns the subject the access check loaded, if it loaded
// one of type T.
func subjectFrom[T any](ctx context.Context) (T, bool) {
	v, ok := ctx.Value(subjectKey).(T)
	return v, ok
}

// access is an operation's row in the authorization table: the kind of
// subject its path names, the path parameter holding the subject's id, and
// the minimum level the caller needs on it.
type access struct {
	scope service.Scope
	param string
	min   quire.Level
	// absentOK marks a DELETE of the subject itself: a subject that does
	// not exist, or that the caller cannot see, answers 204 ("nothing to
	// delete") rather than 404.
	absentOK bool
	// public marks an operation served without a token: what it serves
	// is authorized by a signature in its request, which the operation
	// checks.
	public bool
}

// orAbsent marks the row of a DELETE whose subject is the thing deleted.
func (a access) orAbsent() access {
	a.absentOK = true
	return a
}

// anyUser lets every authenticated caller in; the operation itself decides
// what they see.
func anyUser() access { return access{scope: service.ScopeNone} }

// signedLink lets every request in without a token: the operation checks
// the signature its request carries.
func signedLink() access { return access{scope: service.ScopeNone, public: true} }

// onOrg requires a level in the organization named by {organizationId}.
func onOrg(min quire.Level) access {
	return access{scope: service.ScopeOrganization, param: "organizationId", min: min}
}

// onSpace requires a level on the space named by {spaceId}.
func onSpace(min quire.Level) access {
	return access{scope: service.ScopeSpace, param: "spaceId", min: min}
}

// onSite requires a level on the site named by {siteId}: the caller's
// level in its organization, or what an installation token's scopes give
// on the sites its installation covers.
func onSite(min quire.Level) access {
	return access{scope: service.ScopeSite, param: "siteId", min: min}
}

// onCollection requires a level on the collection named by {collectionId}.
func onCollection(min quire.Level) access {
	return access{scope: service.ScopeCollection, param: "collectionId", min: min}
}

// checkAccess enforces the authorization table before any handler runs.
// Subjects the caller cannot see answer 404, as if they did not exist;
// visible subjects with too low a level answer 403.
func (s *Server) checkAccess(api huma.API) func(huma.Context, func(huma.Context)) {
	return func(ctx huma.Context, next func(huma.Context)) {
		a, ok := ctx.Operation().Metadata["access"].(access)
		if !ok || a.scope == service.ScopeNone {
			next(ctx)
			return
		}
		u := userFrom(ctx.Context())
		level, subject, err := s.svc.OperationAccess(ctx.Context(), u, service.Operation{ID: ctx.Operation().OperationID,
			Scope: a.scope, Subject: ctx.Param(a.param), Min: a.min, Param: ctx.Param})
		if err != nil && !(a.absentOK && quire.IsNotFound(err)) {
			e := s.toAPIError(err)
			_ = huma.WriteErr(api, ctx, e.Body.Code, e.Body.Message)
			return
		}
		if level < a.min {
			if level < a.scope.Visible() && a.absentOK {
				ctx.SetStatus(http.StatusNoContent)
				return
			}
			if level < a.scope.Visible() {
				_ = huma.WriteErr(api, ctx, http.StatusNotFound, a.scope.String()+" not found")
				return
			}
			_ = huma.WriteErr(api, ctx, http.StatusForbidden,
				"this operation needs the "+a.min.String()+" role; you have "+level.String())
			return
		}
		ctx = huma.WithValue(ctx, levelKey, level)
		if subject != nil {
			ctx = huma.WithValue(ctx, subjectKey, subject)
		}
		next(ctx)
	}
}
