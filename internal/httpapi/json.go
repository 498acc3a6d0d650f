package httpapi

import (
	"time"

	"quire/internal/quire"
)

// body wraps a JSON response body.
type body[T any] struct {
	Body T
}

// reply returns a response with the given body.
func reply[T any](v T) *body[T] { return &body[T]{Body: v} }

// statusOnly is a response without a body whose status the handler picks.
type statusOnly struct {
	Status int
}

// deleted answers a DELETE: 205 when something was deleted, 204 when
// nothing was there.
func deleted(existed bool) *statusOnly {
	if existed {
		return &statusOnly{Status: 205}
	}
	return &statusOnly{Status: 204}
}

// noContent answers 204.
func noContent() *statusOnly { return &statusOnly{Status: 204} }

// timestamp renders a time as ISO 8601 UTC with milliseconds.
func timestamp(t time.Time) string {
	t = t.UTC()
	y, mo, d := t.Date()
	if y < 0 || y > 9999 {
		return t.Format("2006-01-02T15:04:05.000Z")
	}
	h, mi, sec := t.Clock()
	// Written digit by digit: a page of objects carries hundreds of
	// these, and the layout interpreter of Format dominated their cost.
	var b [24]byte
	put := func(at, v, width int) {
		for i := at + width - 1; i >= at; i-- {
			b[i] = byte('0' + v%10)
			v /= 10
		}
	}
	put(0, y, 4)
	b[4] = '-'
	put(5, int(mo), 2)
	b[7] = '-'
	put(8, d, 2)
	b[10] = 'T'
	put(11, h, 2)
	b[13] = ':'
	put(14, mi, 2)
	b[16] = ':'
	put(17, sec, 2)
	b[19] = '.'
	put(20, t.Nanosecond()/1e6, 3)
	b[23] = 'Z'
	return string(b[:])
}

// optTimestamp renders an optional time, or nil.
func optTimestamp(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := timestamp(*t)
	return &s
}

// ListParams are the paging parameters every list takes.
type ListParams struct {
	Page  string `query:"page" doc:"Cursor of the page to fetch, from a previous page's next.page"`
	Limit int    `query:"limit" minimum:"0" maximum:"1000" doc:"Page size (default 50, at most 1000)"`
}

// page converts the parameters for the service.
func (p ListParams) page() quire.Page { return quire.Page{Cursor: p.Page, Limit: p.Limit} }

// listOf is the list envelope: next is omitted on the last page and count
// is the total across pages, omitted when the list is not counted.
type listOf[T any] struct {
	Next  *nextPage `json:"next,omitempty"`
	Count *int      `json:"count,omitempty" doc:"Total count of objects in the list"`
	Items []T       `json:"items"`

	// written, when not nil, holds the items already written as JSON,
	// standing in for Items (see spaceMemo).
	written [][]byte
}

// countOf is the count member of a list envelope: absent for a list that
// is not counted.
func countOf(n int) *int {
	if n == quire.Uncounted {
		return nil
	}
	return &n
}

// nextPage points at the next page.
type nextPage struct {
	Page string `json:"page" doc:"Cursor of the next page"`
}

// listJSON converts a page of domain objects.
func listJSON[T, U any](l *quire.List[T], conv func(T) U) listOf[U] {
	out := listOf[U]{Count: countOf(l.Count), Items: make([]U, 0, len(l.Items))}
	for _, it := range l.Items {
		out.Items = append(out.Items, conv(it))
	}
	if l.Next != "" {
		out.Next = &nextPage{Page: l.Next}
	}
	return out
}

// listWritten converts a page of domain objects with a conversion that
// writes each one's JSON.
func listWritten[T, U any](l *quire.List[T], write func(T) []byte) listOf[U] {
	out := listOf[U]{Count: countOf(l.Count), written: make([][]byte, 0, len(l.Items))}
	for _, it := range l.Items {
		out.written = append(out.written, write(it))
	}
	if l.Next != "" {
		out.Next = &nextPage{Page: l.Next}
	}
	return out
}

// listJSONOrErr converts a page of domain objects with a conversion that
// may fail; it returns the first failure.
func listJSONOrErr[T, U any](l *quire.List[T], conv func(T) (U, error)) (listOf[U], error) {
	var err error
	out := listJSON(l, func(it T) U {
		u, e := conv(it)
		if err == nil {
			err = e
		}
		return u
	})
	return out, err
}

// userJSON is the User object.
type userJSON struct {
	Object      string  `json:"object" enum:"user"`
	ID          string  `json:"id"`
	DisplayName string  `json:"displayName"`
	Email       string  `json:"email,omitempty"`
	PhotoURL    string  `json:"photoURL,omitempty"`
	URLs        locURLs `json:"urls"`
}

// locURLs carries the API location of an object.
type locURLs struct {
	Location string `json:"location" format:"uri"`
}

// userOut converts a user.
func (s *Server) userOut(u *quire.User) userJSON {
	return userJSON{Object: "user", ID: u.ID, DisplayName: u.DisplayName, Email: u.Email, PhotoURL: u.PhotoURL,
		URLs: locURLs{Location: s.urls.api("users", u.ID)}}
}

// roleOrNull renders a role, or nil for a guest.
func roleOrNull(r quire.Role) *string {
	if r == "" {
		return nil
	}
	s := string(r)
	return &s
}

// defaultLevelOrNull renders a default level, or nil for none.
func defaultLevelOrNull(d quire.DefaultLevel) *string {
	if d == quire.DefaultNone {
		return nil
	}
	s := string(d)
	return &s
}
