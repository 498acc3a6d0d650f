package app

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"quire/internal/quire"
	"quire/internal/web"
)

// jsonAnswer is a handler of the editor's scripts: it returns the value
// to answer as JSON, or the error to answer as {"error", "field"}.
type jsonAnswer func(w http.ResponseWriter, r *http.Request) (any, error)

// jsonHandler turns a jsonAnswer into a route's handler: the scripts
// read a failure's message from the JSON, with the status of its code;
// an unexpected failure is logged and answered with a plain message.
func (a *App) jsonHandler(h jsonAnswer) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		v, err := h(w, r)
		if err != nil {
			a.jsonFail(w, r, err)
			return nil
		}
		w.Header().Set("Content-Type", "application/json")
		return json.NewEncoder(w).Encode(v)
	}
}

// jsonError is what a failed script request answers.
type jsonError struct {
	Error string `json:"error"`
	Field string `json:"field,omitempty"`
}

// jsonFail answers err as JSON, with the status its code maps to.
func (a *App) jsonFail(w http.ResponseWriter, r *http.Request, err error) {
	status := web.StatusOf(quire.ErrorCode(err))
	out := jsonError{Error: quire.ErrorMessage(err)}
	var e *quire.Error
	if errors.As(err, &e) {
		out.Field = e.Field
	}
	switch {
	case status == http.StatusInternalServerError && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
		status, out = http.StatusServiceUnavailable, jsonError{Error: "The request took too long and was stopped. Try again."}
	case status == http.StatusInternalServerError:
		a.log.ErrorContext(r.Context(), "app request failed", "route", r.Pattern, "err", err)
		out = jsonError{Error: "Something went wrong on our side. Try again; if it keeps happening, tell your administrator."}
	case status == http.StatusNotFound:
		out.Error = "There is nothing here, or you do not have access to it: " + out.Error
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(out)
}
