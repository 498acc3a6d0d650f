package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"quire/internal/httpmw"
	"quire/internal/quire"
	"quire/internal/ratelimit"
	"quire/internal/service"
)

// The headers of a limited answer, as the hosted API names them. They are
// set as written here (not canonicalized to X-Ratelimit-…); header names
// are case-insensitive to clients.
const (
	headerRateLimit     = "X-RateLimit-Limit"
	headerRateRemaining = "X-RateLimit-Remaining"
	headerRateReset     = "X-RateLimit-Reset"
	headerRetryAfter    = "Retry-After"
)

// setRateHeaders writes a quota in the headers of an answer: the limit,
// the requests remaining, when the caller has its whole limit again (Unix
// seconds) and, on a refusal, Retry-After in seconds. A request no limit
// counted gets none.
func setRateHeaders(h http.Header, q ratelimit.Quota) {
	if q.Limit == 0 {
		return
	}
	v := []string{strconv.Itoa(q.Limit), strconv.Itoa(q.Remaining), strconv.FormatInt(q.ResetUnix(), 10)}
	h[headerRateLimit], h[headerRateRemaining], h[headerRateReset] = v[0:1:1], v[1:2:2], v[2:3:3]
	if !q.Allowed {
		h.Set(headerRetryAfter, strconv.FormatInt(q.RetrySeconds(), 10))
	}
}

// limit counts r against class under key and writes its quota in w's
// headers. A refused request, or one that could not be counted, is
// answered through refuse, and limit returns false. Every rate limit of
// the server is applied through it: the API's in authenticate, the
// limited browser routes' in their row's handler, published sites'
// search in readSite and their MCP endpoint's in siteDocs.Search.
func (s *Server) limit(w http.ResponseWriter, r *http.Request, class service.RateClass, key string,
	refuse func(http.ResponseWriter, *http.Request, error)) bool {
	q, err := s.limits.Take(r.Context(), class, key)
	setRateHeaders(w.Header(), q)
	if err != nil {
		refuse(w, r, err)
		return false
	}
	return true
}

// limitCaller counts an authenticated API request against its
// credential's limit.
func (s *Server) limitCaller(w http.ResponseWriter, r *http.Request, token string, u *quire.User, ss *quire.Session) bool {
	return s.limits == nil || s.limit(w, r, service.RateCaller, callerKey(token, u, ss), s.refuseAPI)
}

// limitAddress counts an API request without a valid credential against
// its client address's limit.
func (s *Server) limitAddress(w http.ResponseWriter, r *http.Request) bool {
	return s.limits == nil || s.limit(w, r, service.RateAddress, clientKey(r), s.refuseAPI)
}

// refuseAPI answers with the API's error body.
func (s *Server) refuseAPI(w http.ResponseWriter, _ *http.Request, err error) {
	writeError(w, s.toAPIError(err))
}

// limited wraps the handler of a browser route whose row names a rate
// limit, counted per client address; refuse answers a refusal.
func (s *Server) limited(class service.RateClass, h http.HandlerFunc, refuse func(http.ResponseWriter, *http.Request, error)) http.HandlerFunc {
	if s.limits == nil {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) {
		if s.limit(w, r, class, clientKey(r), refuse) {
			h(w, r)
		}
	}
}

// callerKey is the key an authenticated API request is counted under:
// the id of its API token, its integration installation (whose tokens
// are made afresh for each event), or its browser session.
func callerKey(token string, u *quire.User, ss *quire.Session) string {
	switch {
	case ss != nil:
		return "s:" + ss.ID
	case u.Integration != nil && u.Integration.InstallationID != "":
		return "i:" + u.Integration.InstallationID
	case u.Integration != nil:
		return "n:" + u.Integration.IntegrationID
	}
	id, _, _ := quire.ParseToken(token)
	return id
}

// clientKey is the key r's client address is counted under.
func clientKey(r *http.Request) string {
	return ratelimit.AddressKey(httpmw.ClientAddress(r))
}

// apiPath reports whether path is one of the API's.
func apiPath(path string) bool { return strings.HasPrefix(path, "/v1/") || path == "/v1" }
