// Package fetch is the one HTTP client Quire uses to fetch what a user
// points at (files by URL, and later Git remotes, imports, OpenAPI sources
// and webhooks).
//
// Every connection is checked at dial time, after DNS resolution, so a
// host name that resolves to a loopback, private, link-local or otherwise
// special address is refused, whether it was the URL given or a redirect,
// and a name that changes its answer between two lookups gains nothing.
// Only http and https are fetched, no proxy is used, few redirects are
// followed, each fetch has a connect timeout, a total timeout and a size
// cap, and a failure says only which URL could not be fetched: the reason
// (refused address, closed port, DNS failure) is logged at debug level
// and never shown to the caller.
package fetch
