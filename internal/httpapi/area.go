package httpapi

import "quire/internal/quire"

// area is the service of an API area the server may be built without;
// its operations then answer 503 naming the area.
type area[T any] struct {
	svc  *T
	name string
}

// get returns the service, or the error answering that there is none.
func (a area[T]) get() (*T, error) {
	if a.svc == nil {
		return nil, &quire.Error{Code: quire.EUNAVAILABLE, Message: a.name + " is not available on this server"}
	}
	return a.svc, nil
}
