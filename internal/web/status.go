package web

import (
	"net/http"

	"quire/internal/quire"
)

// StatusOf returns the HTTP status of a domain error code.
func StatusOf(code string) int {
	switch code {
	case quire.EINVALID:
		return http.StatusBadRequest
	case quire.EUNAUTHORIZED:
		return http.StatusUnauthorized
	case quire.EFORBIDDEN:
		return http.StatusForbidden
	case quire.ENOTFOUND:
		return http.StatusNotFound
	case quire.ECONFLICT:
		return http.StatusConflict
	case quire.EPRECONDITION:
		return http.StatusPreconditionFailed
	case quire.ETOOLARGE:
		return http.StatusRequestEntityTooLarge
	case quire.EUNAVAILABLE:
		return http.StatusServiceUnavailable
	case quire.ETOOMANY:
		return http.StatusTooManyRequests
	}
	return http.StatusInternalServerError
}
