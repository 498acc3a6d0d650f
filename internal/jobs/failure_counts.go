package jobs

import (
	"maps"
	"sync"
)

// failureCounts counts failed attempts by job kind.
type failureCounts struct {
	mu     sync.Mutex
	byKind map[string]int64
}

// add counts a failed attempt of a job of kind.
func (c *failureCounts) add(kind string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKind == nil {
		c.byKind = map[string]int64{}
	}
	c.byKind[kind]++
}

// Failures returns how many attempts of each kind of job failed (returned
// an error or panicked) in this process since the queue was made; a kind
// with none is absent. Failures on other replicas are counted there.
func (q *Queue) Failures() map[string]int64 {
	q.failures.mu.Lock()
	defer q.failures.mu.Unlock()
	return maps.Clone(q.failures.byKind)
}

// Kinds returns the kinds of job with a worker registered on q, in the
// order registered.
func (q *Queue) Kinds() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]string(nil), q.kinds...)
}
