package content

import "sync"

// lastPositions remembers the highest position among the children of a
// parent, per page map root. A page map root fixes every page object, so
// an entry can never go stale: appending a page under a parent whose
// entry is known costs no read of its siblings, and the entries for the
// page map that results are recorded in turn. Entries come only from edits
// made in this process; anything else (a restart, a merge, a move) falls
// back to reading the siblings once.
type lastPositions struct {
	mu    sync.Mutex
	m     map[string]map[string]string // page map root → parent → position
	n     int                          // entries in m
	limit int
}

// newLastPositions returns a memo of up to limit entries.
func newLastPositions(limit int) *lastPositions {
	return &lastPositions{m: map[string]map[string]string{}, limit: limit}
}

// get returns the last position under parent in the page map pages.
func (l *lastPositions) get(pages, parent string) (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p, ok := l.m[pages][parent]
	return p, ok
}

// carry records the last positions of the page map to, reached from the
// page map from by appends alone: those under the parents of last, and
// under every other parent those known for from, which the appends left
// as they were. A full memo starts over.
func (l *lastPositions) carry(from, to string, last map[string]string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	known := l.m[from]
	if l.n+len(known)+len(last) > l.limit {
		l.m, l.n = map[string]map[string]string{}, 0
	}
	dst := l.m[to]
	if dst == nil {
		dst = map[string]string{}
		l.m[to] = dst
	}
	for _, src := range []map[string]string{known, last} {
		for parent, pos := range src {
			if _, ok := dst[parent]; !ok {
				l.n++
			}
			dst[parent] = pos
		}
	}
}
