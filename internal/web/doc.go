// Package web holds what the API and the app share at the HTTP edge: the
// browser session cookie and the status each domain error code answers
// with. It knows the domain's error codes and nothing of either route
// table.
package web
