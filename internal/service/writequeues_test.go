package service

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"quire/internal/quire"
	"quire/internal/store/sqlstore"
)

// txCounter is a store that counts the transactions begun on it and can
// hold the next one back until the test lets it go.
type txCounter struct {
	quire.Store
	mu   sync.Mutex
	txs  int
	hold chan struct{} // when set, the next transaction waits for it to close
	held chan struct{} // closed once that transaction waits
}

// WithTx counts the transaction, waits when it is held back, and runs it.
func (c *txCounter) WithTx(ctx context.Context, fn func(quire.Store) error) error {
	c.mu.Lock()
	c.txs++
	hold, held := c.hold, c.held
	c.hold, c.held = nil, nil
	c.mu.Unlock()
	if hold != nil {
		close(held)
		<-hold
	}
	return c.Store.WithTx(ctx, fn)
}

// holdNext makes the next transaction wait until the returned function is
// called, and returns a channel closed once it waits; it resets the count.
func (c *txCounter) holdNext() (<-chan struct{}, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.txs = 0
	hold, held := make(chan struct{}), make(chan struct{})
	c.hold, c.held = hold, held
	return held, func() { close(hold) }
}

// count returns the transactions begun since holdNext.
func (c *txCounter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.txs
}

// mergeFixture is a service over a counting store, with a space and its
// admin.
type mergeFixture struct {
	svc   *Service
	st    *txCounter
	u     *quire.User
	space string
}

// forEachStore runs fn on a fresh SQLite store and, when PostgreSQL is
// configured, on a fresh PostgreSQL database.
func forEachStore(t *testing.T, fn func(t *testing.T, f *mergeFixture)) {
	EachStore(t, func(t *testing.T, raw quire.Store) {
		ctx := t.Context()
		st := &txCounter{Store: raw}
		svc := New(st)
		boot, err := svc.Bootstrap(ctx, BootstrapInput{OrgTitle: "Org", Email: "a@example.com", Name: "A"})
		if err != nil {
			t.Fatal(err)
		}
		u, err := raw.User(ctx, boot.User)
		if err != nil {
			t.Fatal(err)
		}
		sp, err := svc.CreateSpace(ctx, u, boot.Organization, SpaceInput{Title: "Busy"})
		if err != nil {
			t.Fatal(err)
		}
		fn(t, &mergeFixture{svc: svc, st: st, u: u, space: sp.Space.ID})
	})
}

// changeRequest opens a change request and writes changes to it.
func (f *mergeFixture) changeRequest(t *testing.T, subject string, changes ...ContentChange) string {
	t.Helper()
	cr, err := f.svc.CreateChangeRequest(t.Context(), f.u, f.space, subject)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.svc.UpdateChangeRequestContent(t.Context(), f.u, f.space, cr.ID, changes); err != nil {
		t.Fatal(err)
	}
	return cr.ID
}

// newPage is a change inserting a page.
func newPage(title, body string) ContentChange {
	return ContentChange{Operation: OpInsertPage, Fields: PageFields{Title: &title}, Document: &DocumentInput{Markdown: &body}}
}

// queued waits until n operations of the space wait in the queue.
func (f *mergeFixture) queued(t *testing.T, n int) {
	t.Helper()
	waitQueued(t, f.svc.spaceQueues, f.space, n)
}

// answer is one merge's outcome.
type answer struct {
	out *MergeOutcome
	err error
}

// mergeQueued holds the next transaction back, starts a merge of first
// and, once that one waits in its transaction, merges of every one of
// rest, which queue behind it; then it lets the transaction go and
// returns every answer, first's at index 0.
func (f *mergeFixture) mergeQueued(t *testing.T, first string, rest ...string) []answer {
	t.Helper()
	held, release := f.st.holdNext()
	answers := make([]answer, 1+len(rest))
	var wg sync.WaitGroup
	merge := func(i int, cr string) {
		wg.Go(func() {
			answers[i].out, answers[i].err = f.svc.MergeChangeRequest(context.Background(), f.u, f.space, cr)
		})
	}
	merge(0, first)
	<-held
	for i, cr := range rest {
		merge(1+i, cr)
	}
	f.queued(t, len(rest))
	release()
	wg.Wait()
	return answers
}

// TestQueuedMergesShareOneTransaction merges many non-conflicting change
// requests of one space while a first merge holds the space: those that
// queue meanwhile all merge, in one more transaction, into one chain of
// main revisions.
func TestQueuedMergesShareOneTransaction(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, f *mergeFixture) {
		const n = 12
		crs := make([]string, n)
		for i := range crs {
			crs[i] = f.changeRequest(t, fmt.Sprintf("Page %d", i), newPage(fmt.Sprintf("Page %d", i), "Text."))
		}
		answers := f.mergeQueued(t, crs[0], crs[1:]...)
		if got := f.st.count(); got != 2 {
			t.Errorf("%d merges took %d transactions, want 2: the first alone, the queued ones together", n, got)
		}
		revs := map[string]bool{}
		for i, a := range answers {
			if a.err != nil || a.out.Result != ResultMerge {
				t.Fatalf("merge %d: %+v, %v", i, a.out, a.err)
			}
			revs[a.out.Revision] = true
		}
		// Each merge built on the one before: main's history holds every
		// merge revision, one after the other.
		sp, err := f.st.Space(t.Context(), f.space)
		if err != nil {
			t.Fatal(err)
		}
		for rev, seen := sp.Revision, 0; seen < n; seen++ {
			if !revs[rev] {
				t.Fatalf("main's revision %d back, %s, is not one of the merges", seen, rev)
			}
			r, err := f.st.Revision(t.Context(), f.space, rev)
			if err != nil {
				t.Fatal(err)
			}
			rev = r.Parents[0]
		}
		c, err := f.svc.Content(t.Context(), ContentRef{SpaceID: f.space})
		if err != nil {
			t.Fatal(err)
		}
		pages, err := c.Pages(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if len(pages) != n {
			t.Errorf("main has %d pages, want %d", len(pages), n)
		}
	})
}

// TestQueuedMergeFailsAlone queues, in one batch, two merges that edit the
// same paragraph, a merge of an archived change request and two merges of
// one change request beside a merge that conflicts with nothing: one of
// the two editors merges and the other reports conflicts, the archived
// and the repeated merge are refused, and the rest merge.
func TestQueuedMergeFailsAlone(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, f *mergeFixture) {
		ctx := t.Context()
		seed := f.changeRequest(t, "Seed", newPage("Doc", "Alpha\n\nBeta\n\nGamma"))
		if _, err := f.svc.MergeChangeRequest(ctx, f.u, f.space, seed); err != nil {
			t.Fatal(err)
		}
		c, err := f.svc.Content(ctx, ContentRef{SpaceID: f.space})
		if err != nil {
			t.Fatal(err)
		}
		pages, err := c.Pages(ctx)
		if err != nil || len(pages) != 1 {
			t.Fatalf("seeded pages: %v, %v", pages, err)
		}
		doc := pages[0].ID
		edit := func(body string) ContentChange {
			return ContentChange{Operation: OpUpdatePage, Page: doc, Document: &DocumentInput{Markdown: &body}}
		}
		first := f.changeRequest(t, "First", newPage("First", "Text."))
		a := f.changeRequest(t, "A", edit("Alpha\n\nBeta by A\n\nGamma"))
		b := f.changeRequest(t, "B", edit("Alpha\n\nBeta by B\n\nGamma"))
		other := f.changeRequest(t, "Other", newPage("Other", "Text."))
		twice := f.changeRequest(t, "Twice", newPage("Twice", "Text."))
		archived := f.changeRequest(t, "Archived", newPage("Archived", "Text."))
		st := quire.CRArchived
		if _, err := f.svc.UpdateChangeRequest(ctx, f.space, archived, ChangeRequestPatch{Status: &st}); err != nil {
			t.Fatal(err)
		}

		answers := f.mergeQueued(t, first, a, b, other, archived, twice, twice)
		if got := f.st.count(); got != 2 {
			t.Errorf("the merges took %d transactions, want 2", got)
		}
		results := map[string]int{}
		for _, i := range []int{0, 3} {
			if a := answers[i]; a.err != nil || a.out.Result != ResultMerge {
				t.Errorf("merge %d: %+v, %v", i, a.out, a.err)
			}
		}
		for _, a := range answers[1:3] {
			if a.err != nil {
				t.Fatalf("editor's merge: %v", a.err)
			}
			results[a.out.Result]++
		}
		if results[ResultMerge] != 1 || results[ResultConflicts] != 1 {
			t.Errorf("two editors of one paragraph: %v, want one merge and one conflicts", results)
		}
		if err := answers[4].err; quire.ErrorCode(err) != quire.EINVALID {
			t.Errorf("merging an archived change request: %v, want invalid", err)
		}
		merged, refused := 0, 0
		for _, a := range answers[5:] {
			switch {
			case a.err == nil && a.out.Result == ResultMerge:
				merged++
			case quire.ErrorCode(a.err) == quire.EINVALID:
				refused++
			}
		}
		if merged != 1 || refused != 1 {
			t.Errorf("one change request merged twice: %d merged, %d refused, want one each", merged, refused)
		}
		c, err = f.svc.Content(ctx, ContentRef{SpaceID: f.space})
		if err != nil {
			t.Fatal(err)
		}
		if pages, err = c.Pages(ctx); err != nil {
			t.Fatal(err)
		}
		if len(pages) != 4 {
			t.Errorf("main has %d pages, want Doc, First, Other and Twice", len(pages))
		}
	})
}

// TestQueuedMergeWithdrawn cancels a merge while it waits behind another:
// it answers the cancellation, leaves the queue, and its change request
// stays unmerged, while the merge ahead of it completes.
func TestQueuedMergeWithdrawn(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, f *mergeFixture) {
		first := f.changeRequest(t, "First", newPage("First", "Text."))
		left := f.changeRequest(t, "Left", newPage("Left", "Text."))
		held, release := f.st.holdNext()
		done := make(chan answer, 1)
		go func() {
			out, err := f.svc.MergeChangeRequest(context.Background(), f.u, f.space, first)
			done <- answer{out, err}
		}()
		<-held
		ctx, cancel := context.WithCancel(context.Background())
		gone := make(chan error, 1)
		go func() {
			_, err := f.svc.MergeChangeRequest(ctx, f.u, f.space, left)
			gone <- err
		}()
		f.queued(t, 1)
		cancel()
		if err := <-gone; err != context.Canceled {
			t.Errorf("the cancelled merge answered %v, want the cancellation", err)
		}
		f.queued(t, 0)
		release()
		if a := <-done; a.err != nil || a.out.Result != ResultMerge {
			t.Fatalf("the merge ahead: %+v, %v", a.out, a.err)
		}
		cr, err := f.st.ChangeRequest(t.Context(), f.space, left)
		if err != nil {
			t.Fatal(err)
		}
		if cr.Status == quire.CRMerged {
			t.Error("the withdrawn change request was merged")
		}
		if got := f.st.count(); got != 1 {
			t.Errorf("%d transactions, want the first merge's alone", got)
		}
	})
}

// TestQueuedMergeStatementsPerMerge merges a batch of 4 and then a batch
// of 12 queued change requests and counts the statements each sent: on
// PostgreSQL every merge more in a batch costs one statement (its
// compare-and-swap), its read being answered from the batch's read-ahead;
// on SQLite, whose statements cost no round trip, five (a savepoint, the
// read, the change request's and the space's compare-and-swap, the
// content event).
func TestQueuedMergeStatementsPerMerge(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, f *mergeFixture) {
		stats, ok := f.st.Store.(interface{ Stats() sqlstore.Stats })
		if !ok {
			t.Fatalf("%T does not report its stats", f.st.Store)
		}
		batch := func(n int) int64 {
			crs := make([]string, n)
			for i := range crs {
				title := fmt.Sprintf("Page %d of %d", i, n)
				crs[i] = f.changeRequest(t, title, newPage(title, "Text."))
			}
			before := stats.Stats().Statements
			for i, a := range f.mergeQueued(t, crs[0], crs[1:]...) {
				if a.err != nil || a.out.Result != ResultMerge {
					t.Fatalf("merge %d of %d: %+v, %v", i, n, a.out, a.err)
				}
			}
			return stats.Stats().Statements - before
		}
		small, large := batch(4), batch(12)
		per, want := float64(large-small)/8, 5.0
		if strings.HasSuffix(t.Name(), "/postgres") {
			want = 1
		}
		t.Logf("%d statements for 4 queued merges, %d for 12", small, large)
		if per > want {
			t.Errorf("%d statements for 4 queued merges, %d for 12: %.2f a merge, want at most %.0f", small, large, per, want)
		}
	})
}

// TestQueuedMergesAnnounceOnce merges a change request, then five queued
// behind it, and one with nothing to merge: the content events of each
// batch are announced with one job after its commit, and an answer that
// moved nothing announces nothing.
func TestQueuedMergesAnnounceOnce(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, f *mergeFixture) {
		q := &recordingQueue{}
		f.svc.queue = q
		crs := make([]string, 6)
		for i := range crs {
			title := fmt.Sprintf("Page %d", i)
			crs[i] = f.changeRequest(t, title, newPage(title, "Text."))
		}
		for i, a := range f.mergeQueued(t, crs[0], crs[1:]...) {
			if a.err != nil || a.out.Result != ResultMerge {
				t.Fatalf("merge %d: %+v, %v", i, a.out, a.err)
			}
		}
		want := []quire.JobArgs{ContentJob{Space: f.space}, ContentJob{Space: f.space}}
		if len(q.args) != len(want) || q.args[0] != want[0] || q.args[1] != want[1] {
			t.Fatalf("two batches of merges queued %v, want one job each", q.args)
		}
		if _, err := f.svc.MergeChangeRequest(t.Context(), f.u, f.space, crs[0]); quire.ErrorCode(err) != quire.EINVALID {
			t.Fatalf("merging a merged change request again: %v", err)
		}
		if len(q.args) != len(want) {
			t.Errorf("a refused merge queued %v", q.args[len(want):])
		}
	})
}
