package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// raceRounds is how many times each race below is run: one round rarely
// hits the window between a merge's read and its write, a hundred and
// more hit it many times.
const raceRounds = 150

// call makes a request from any goroutine: it reports failures instead
// of stopping the test. The body is decoded as a JSON object when it is
// one.
func (ts *testServer) call(method, path, token string, body any) (int, map[string]any, error) {
	var rd io.Reader
	if body != nil {
		enc, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		rd = bytes.NewReader(enc)
	}
	req, err := http.NewRequest(method, ts.URL+path, rd)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", bearer(token))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return resp.StatusCode, nil, fmt.Errorf("%s %s: %d, body is not an object: %s", method, path, resp.StatusCode, data)
	}
	return resp.StatusCode, m, nil
}

// outcome is the answer to one of two racing calls.
type outcome struct {
	status int
	body   map[string]any
	err    error
}

// race sends two requests at the same moment and returns both answers.
func (ts *testServer) race(a, b func() (int, map[string]any, error)) (outcome, outcome) {
	var (
		wg     sync.WaitGroup
		start  = make(chan struct{})
		oa, ob outcome
	)
	wg.Add(2)
	go func() {
		defer wg.Done()
		<-start
		oa.status, oa.body, oa.err = a()
	}()
	go func() {
		defer wg.Done()
		<-start
		ob.status, ob.body, ob.err = b()
	}()
	close(start)
	wg.Wait()
	return oa, ob
}

// checkMergedFrom checks that a merged change request's current revision
// is the one its merge took: the second parent of the merge revision.
func (ts *testServer) checkMergedFrom(t *testing.T, sp, cr, merged string) {
	t.Helper()
	got := ts.getCR(t, sp, cr)
	if str(got, "status") != "merged" || str(got, "revisionMerged") != merged {
		t.Fatalf("change request %s after its merge: status %q, revisionMerged %q, want merged %s",
			cr, str(got, "status"), str(got, "revisionMerged"), merged)
	}
	rev := ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+sp+"/revisions/"+merged, ts.token(cAdmin), nil)
	parents, _ := rev["parents"].([]any)
	if len(parents) != 2 || parents[1] != str(got, "revision") {
		t.Fatalf("change request %s is on revision %s, but its merge %s took %v",
			cr, str(got, "revision"), merged, parents)
	}
}

// TestContentWriteRacingMerge sends a content write and the merge of the
// same change request at the same moment, many times: every write that
// is acknowledged is in main, and every other write is refused because
// the change request is merged.
func TestContentWriteRacingMerge(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		sp := ts.newSpace(t, "Race")
		refused := 0
		for i := range raceRounds {
			cr := str(ts.newChangeRequest(t, sp, fmt.Sprintf("Round %d", i)), "id")
			ts.writeContent(t, sp, cr, insertPage(fmt.Sprintf("First %d", i), "First."))
			write, merge := ts.race(
				func() (int, map[string]any, error) {
					return ts.call("POST", crPath(sp, cr, "/content?compat=false"), admin,
						map[string]any{"changes": []any{insertPage(fmt.Sprintf("Late %d", i), "Late.")}})
				},
				func() (int, map[string]any, error) { return ts.call("POST", crPath(sp, cr, "/merge"), admin, nil) })
			if write.err != nil || merge.err != nil {
				t.Fatalf("round %d: %v, %v", i, write.err, merge.err)
			}
			if merge.status != http.StatusOK || str(merge.body, "result") != "merge" {
				t.Fatalf("round %d: merge answered %d %v", i, merge.status, merge.body)
			}
			switch write.status {
			case http.StatusOK:
				page := str(write.body, "changes.0.page.id")
				if r := ts.send(t, "GET", "/v1/spaces/"+sp+"/content/page/"+page, admin, nil); r.Status != http.StatusOK {
					t.Fatalf("round %d: the acknowledged write (page %s) is not in main: %d", i, page, r.Status)
				}
			case http.StatusBadRequest:
				if msg := str(write.body, "error.message"); !strings.Contains(msg, "merged") {
					t.Fatalf("round %d: write refused with %q", i, msg)
				}
				refused++
			default:
				t.Fatalf("round %d: write answered %d %v", i, write.status, write.body)
			}
			ts.checkMergedFrom(t, sp, cr, str(merge.body, "revision"))
		}
		t.Logf("%s: %d of %d writes refused, the rest merged", ts.Engine, refused, raceRounds)
	})
}

// TestUpdateRacingMerge sends the update of a change request and its merge
// at the same moment, many times: the change request always ends on the
// revision its merge took, and an update that answers with a new revision
// is in that merge.
func TestUpdateRacingMerge(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		sp := ts.newSpace(t, "Race")
		// Each change request is made before the previous one merges, so
		// main has always moved since its base and an update has work.
		next := str(ts.newChangeRequest(t, sp, "Round 0"), "id")
		ts.writeContent(t, sp, next, insertPage("Page 0", "Zero."))
		for i := range raceRounds {
			cr := next
			next = str(ts.newChangeRequest(t, sp, fmt.Sprintf("Round %d", i+1)), "id")
			ts.writeContent(t, sp, next, insertPage(fmt.Sprintf("Page %d", i+1), "Next."))
			update, merge := ts.race(
				func() (int, map[string]any, error) { return ts.call("POST", crPath(sp, cr, "/update"), admin, nil) },
				func() (int, map[string]any, error) { return ts.call("POST", crPath(sp, cr, "/merge"), admin, nil) })
			if update.err != nil || merge.err != nil {
				t.Fatalf("round %d: %v, %v", i, update.err, merge.err)
			}
			if merge.status != http.StatusOK || str(merge.body, "result") != "merge" {
				t.Fatalf("round %d: merge answered %d %v", i, merge.status, merge.body)
			}
			merged := str(merge.body, "revision")
			ts.checkMergedFrom(t, sp, cr, merged)
			switch update.status {
			case http.StatusOK:
				if got := str(ts.getCR(t, sp, cr), "revision"); str(update.body, "result") != "update" || str(update.body, "revision") != got {
					t.Fatalf("round %d: update answered %v, but the change request merged from %s", i, update.body, got)
				}
			case http.StatusBadRequest:
				if msg := str(update.body, "error.message"); !strings.Contains(msg, "merged") {
					t.Fatalf("round %d: update refused with %q", i, msg)
				}
			default:
				t.Fatalf("round %d: update answered %d %v", i, update.status, update.body)
			}
		}
	})
}

// concurrentMerges is how many change requests merge at once below.
const concurrentMerges = 50

// TestConcurrentMergesAllMerge merges fifty change requests of one space
// at the same moment, each adding a different child page: none conflicts
// with another, so every one merges at the first call and main ends with
// all fifty. Two change requests that edit the same paragraph, merged at
// the same moment, still end in one merge and one conflict.
func TestConcurrentMergesAllMerge(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		sp := ts.newSpace(t, "Busy")
		parent := ts.seedPage(t, sp, "Parent", "Children below.")
		crs := make([]string, concurrentMerges)
		for i := range crs {
			crs[i] = str(ts.newChangeRequest(t, sp, fmt.Sprintf("Child %d", i)), "id")
			ts.writeContent(t, sp, crs[i], insertPage(fmt.Sprintf("Child %d", i), "A child.", "into", parent))
		}
		answers := make([]outcome, len(crs))
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i, cr := range crs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				o := &answers[i]
				o.status, o.body, o.err = ts.call("POST", crPath(sp, cr, "/merge"), admin, nil)
			}()
		}
		close(start)
		wg.Wait()
		retry := 0
		for i, o := range answers {
			switch {
			case o.err != nil:
				t.Errorf("merge %d: %v", i, o.err)
			case o.status == http.StatusConflict:
				retry++
			case o.status != http.StatusOK || str(o.body, "result") != "merge":
				t.Errorf("merge %d answered %d %v", i, o.status, o.body)
			}
		}
		if retry > 0 {
			t.Errorf("%d of %d non-conflicting merges were told to try again", retry, len(crs))
		}
		children, _ := ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+sp+"/content/page/"+parent, admin, nil)["pages"].([]any)
		if len(children) != len(crs) {
			t.Errorf("main has %d children of the parent, want %d", len(children), len(crs))
		}

		// A real conflict, raced.
		doc := ts.seedPage(t, sp, "Doc", "Alpha\n\nBeta\n\nGamma")
		a := str(ts.newChangeRequest(t, sp, "A"), "id")
		b := str(ts.newChangeRequest(t, sp, "B"), "id")
		ts.writeContent(t, sp, a, updatePage(doc, "document", md("Alpha\n\nBeta by A\n\nGamma")))
		ts.writeContent(t, sp, b, updatePage(doc, "document", md("Alpha\n\nBeta by B\n\nGamma")))
		oa, ob := ts.race(
			func() (int, map[string]any, error) { return ts.call("POST", crPath(sp, a, "/merge"), admin, nil) },
			func() (int, map[string]any, error) { return ts.call("POST", crPath(sp, b, "/merge"), admin, nil) })
		results := map[string]int{}
		for _, o := range []outcome{oa, ob} {
			if o.err != nil || o.status != http.StatusOK {
				t.Fatalf("conflicting merge answered %d %v %v", o.status, o.body, o.err)
			}
			results[str(o.body, "result")]++
		}
		if results["merge"] != 1 || results["conflicts"] != 1 {
			t.Errorf("two conflicting merges: %v, want one merge and one conflicts", results)
		}
	})
}
