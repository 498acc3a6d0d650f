package app

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"quire/internal/quire"
	"quire/internal/web"
)

// errorPage is what the error page shows.
type errorPage struct {
	Status  int
	Title   string
	Message string
}

// fail draws the page of an error: its status from the domain code, the
// message the domain says is safe to show, and for anything unexpected a
// plain "something went wrong" while the cause goes to the log. A missing
// subject and one the caller may not see draw the same page.
func (a *App) fail(w http.ResponseWriter, r *http.Request, err error) {
	status := web.StatusOf(quire.ErrorCode(err))
	msg := quire.ErrorMessage(err)
	switch {
	case status == http.StatusInternalServerError && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
		status, msg = http.StatusServiceUnavailable, "The request took too long and was stopped. Try again."
	case status == http.StatusInternalServerError:
		a.log.ErrorContext(r.Context(), "app request failed", "route", r.Pattern, "err", err)
		msg = "Something went wrong on our side. Try again; if it keeps happening, tell your administrator."
	case status == http.StatusNotFound:
		msg = "There is nothing here, or you do not have access to it."
	}
	title := http.StatusText(status)
	if status == http.StatusNotFound {
		title = "Page not found"
	}
	a.renderBare(w, r, status, "error", errorPage{Status: status, Title: title, Message: msg})
}

// ErrorPage draws the page of an error as the app's routes draw theirs:
// what the server refuses before a route runs (a rate limit) looks the
// same as what the route refuses.
func (a *App) ErrorPage(w http.ResponseWriter, r *http.Request, err error) {
	w.Header().Set("Cache-Control", "no-store")
	var e *quire.Error
	if errors.As(err, &e) && e.Message != "" {
		c := *e
		c.Message = strings.ToUpper(c.Message[:1]) + c.Message[1:]
		err = &c
	}
	a.fail(w, r, err)
}

// crossOriginRefused answers a state-changing request that did not come
// from the app's own pages.
func (a *App) crossOriginRefused(w http.ResponseWriter, r *http.Request) {
	a.renderBare(w, r, http.StatusForbidden, "error", errorPage{Status: http.StatusForbidden, Title: "Request refused",
		Message: "This request came from another site, so it was refused. Go back to the app and try again from there."})
}

// formError returns the field and message of an invalid-input error, to
// show beside the form; ok is false for any other error.
func formError(err error) (field, msg string, ok bool) {
	var e *quire.Error
	if !errors.As(err, &e) || e.Code != quire.EINVALID {
		return "", "", false
	}
	return e.Field, e.Message, true
}

// now is the service's clock.
func (a *App) now() time.Time { return a.svc.Now() }

// notAvailable is the error of a page whose feature this server runs
// without; what names it, with its verb ("Git Sync is").
func notAvailable(what string) error {
	return &quire.Error{Code: quire.EUNAVAILABLE, Message: what + " not available on this server."}
}
