package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"quire/internal/quire"
	"quire/internal/web"
)

// apiError is the one error body of the API:
// {"error":{"code":N,"message":"..."}} with code equal to the HTTP status.
type apiError struct {
	Body errorBody `json:"error"`
}

// errorBody is the inside of an error response.
type errorBody struct {
	Code    int    `json:"code" doc:"HTTP status code"`
	Message string `json:"message" doc:"What went wrong, naming the field at fault"`
}

// Error implements error.
func (e *apiError) Error() string { return e.Body.Message }

// GetStatus implements huma.StatusError.
func (e *apiError) GetStatus() int { return e.Body.Code }

// ContentType answers plain JSON rather than problem+json.
func (e *apiError) ContentType(string) string { return "application/json" }

// newAPIError builds an error response.
func newAPIError(status int, msg string) *apiError {
	return &apiError{Body: errorBody{Code: status, Message: msg}}
}

// toAPIError turns any error a handler returns into the response to send.
// Internal errors are logged and never shown to the client.
func (s *Server) toAPIError(err error) *apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	status := web.StatusOf(quire.ErrorCode(err))
	if status == http.StatusInternalServerError {
		if msg := contextEnded(err); msg != "" {
			return newAPIError(http.StatusServiceUnavailable, msg)
		}
		s.log.Error("internal error", "err", err)
	}
	return newAPIError(status, quire.ErrorMessage(err))
}

// contextEnded returns the message for work cut short because the
// request's context ended, or "" when err is something else. Such a
// request was not carried out, through no fault of its own, and may be
// sent again as it is: 503, not a 4xx that would blame the request, nor a
// 500 that would report a fault. 408 means a request the server did not
// finish receiving, which this one was.
func contextEnded(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "the request took too long and was stopped before it was done"
	case errors.Is(err, context.Canceled):
		return "the request was cancelled before it was done"
	}
	return ""
}

// humaError builds the responses for the errors the framework itself
// raises (validation, malformed or oversized bodies). Validation failures
// are 400 and the message names the first field at fault.
func humaError(status int, msg string, errs ...error) huma.StatusError {
	if status == http.StatusUnprocessableEntity {
		status = http.StatusBadRequest
	}
	for _, e := range errs {
		var d huma.ErrorDetailer
		if errors.As(e, &d) {
			detail := d.ErrorDetail()
			msg = fieldMessage(detail.Location, detail.Message)
			break
		}
		if e != nil && status >= 500 {
			continue
		}
		if e != nil {
			msg = e.Error()
			break
		}
	}
	if status >= 500 {
		msg = "internal error"
	}
	return newAPIError(status, msg)
}

// fieldMessage renders a validation failure at a location such as
// "body.title" or "query.limit" as "title: ...".
func fieldMessage(location, msg string) string {
	for _, p := range []string{"body.", "query.", "path.", "header."} {
		if rest, ok := strings.CutPrefix(location, p); ok {
			location = rest
			break
		}
	}
	if location == "" {
		return msg
	}
	return fmt.Sprintf("%s: %s", location, msg)
}
