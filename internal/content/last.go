package content

import "sync"

// lastKey names the children of one parent page ("" for the top level) in
// one state of a page map.
type lastKey struct{ pages, parent string }

// lastPositions remembers the highest position among the children of a
// parent, per page map root. A page map root fixes every page object, so
// an entry can never go stale: appending a page under a parent whose
// entry is known costs no read of its siblings, and the entry for the
// page map that results is recorded in turn. Entries come only from edits
// made in this process; anything else (a restart, a merge, a move) falls
// back to reading the siblings once.
type lastPositions struct {
	mu    sync.Mutex
	m     map[lastKey]string
	limit int
}

// newLastPositions returns a memo of up to limit entries.
func newLastPositions(limit int) *lastPositions {
	return &lastPositions{m: map[lastKey]string{}, limit: limit}
}

// get returns the last position under parent in the page map pages.
func (l *lastPositions) get(pages, parent string) (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p, ok := l.m[lastKey{pages, parent}]
	return p, ok
}

// put records the last position under parent in the page map pages; a
// full memo starts over.
func (l *lastPositions) put(pages, parent, position string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.m) >= l.limit {
		l.m = map[lastKey]string{}
	}
	l.m[lastKey{pages, parent}] = position
}
