package quire

// DefaultLimit and MaxLimit bound the size of a list page.
const (
	DefaultLimit = 50
	MaxLimit     = 1000
)

// Page asks for one page of a list: Cursor is the opaque value of a previous
// page's Next ("" for the first page), Limit the page size.
type Page struct {
	Cursor string
	Limit  int
}

// Size returns the page size, applying the default.
func (p Page) Size() int {
	if p.Limit <= 0 {
		return DefaultLimit
	}
	if p.Limit > MaxLimit {
		return MaxLimit
	}
	return p.Limit
}

// Uncounted is the Count of a list whose total is not counted: counting
// would read every matching row on each page, so lists over collections
// that grow without bound (spaces, collections) leave it out.
const Uncounted = -1

// List is one page of results. Next is "" on the last page; Count is the
// total number of items matching the filter across all pages, or
// Uncounted.
type List[T any] struct {
	Items []T
	Next  string
	Count int
}

// Order is a sort direction.
type Order string

// Sort directions.
const (
	OrderAsc  Order = "asc"
	OrderDesc Order = "desc"
)
