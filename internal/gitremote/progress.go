package gitremote

import "io"

// Phase is what a fetch is doing.
type Phase string

// The phases of a fetch, in order. A repository read in place (file://)
// goes straight to PhaseReading.
const (
	// PhaseReceiving: the pack of the commit arrives; Objects of
	// ObjectsTotal have been received, Bytes bytes in all.
	PhaseReceiving Phase = "receiving"
	// PhaseIndexing: the pack received is indexed; Objects of
	// ObjectsTotal are done.
	PhaseIndexing Phase = "indexing"
	// PhaseReading: the commit's tree is listed and its small files read;
	// the counts stay those of the pack.
	PhaseReading Phase = "reading"
)

// Progress is how far a fetch has come.
type Progress struct {
	Phase        Phase
	Objects      int64
	ObjectsTotal int64
	// Bytes is the size of the pack received so far.
	Bytes int64
}

// progress tells a caller's callback how a fetch goes; its zero value
// tells no one.
type progress struct {
	report func(Progress)
	now    Progress
}

// set records a new state and tells it.
func (p *progress) set(phase Phase, objects, total int64) {
	p.now.Phase, p.now.Objects, p.now.ObjectsTotal = phase, objects, total
	p.tell()
}

// tell reports the current state.
func (p *progress) tell() {
	if p.report != nil {
		p.report(p.now)
	}
}

// countingReader counts the bytes read through it into a progress,
// telling it every step bytes.
type countingReader struct {
	r    io.Reader
	p    *progress
	told int64
}

// countStep is how many bytes pass between two reports of the bytes
// received within one object.
const countStep = 1 << 20

// Read implements io.Reader.
func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.p.now.Bytes += int64(n)
	if c.p.now.Bytes-c.told >= countStep {
		c.told = c.p.now.Bytes
		c.p.tell()
	}
	return n, err
}
