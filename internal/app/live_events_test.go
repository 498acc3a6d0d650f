package app_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"quire/internal/quire"
	"quire/internal/service"
)

// sseEvent is one server-sent event: its name, data and id.
type sseEvent struct{ name, data, id string }

// readEvents reads a stream's events onto a channel until it ends.
func readEvents(t *testing.T, res *http.Response) <-chan sseEvent {
	t.Helper()
	out := make(chan sseEvent, 16)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(res.Body)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.name != "" {
					out <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, "event: "):
				ev.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				ev.data = strings.TrimPrefix(line, "data: ")
			case strings.HasPrefix(line, "id: "):
				ev.id = strings.TrimPrefix(line, "id: ")
			}
		}
	}()
	return out
}

// nextEvent waits for the stream's next event other than skip.
func nextEvent(t *testing.T, evs <-chan sseEvent, skip string) sseEvent {
	t.Helper()
	for {
		select {
		case ev, ok := <-evs:
			if !ok {
				t.Fatal("the stream ended")
			}
			if ev.name == skip {
				continue
			}
			return ev
		case <-time.After(10 * time.Second):
			t.Fatal("no event")
		}
	}
}

// TestSpaceEvents opens a space's event stream as its admin: the unread
// count comes first; a comment by someone else on main content arrives
// as an activity naming them, and the mention in it as a new count; a
// merge by someone else arrives as a merge of its change request. A
// person outside the organization is refused the stream.
func TestSpaceEvents(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		f := newSpaceFixture(t, h)
		ben := h.newUser(t, "ben@acme.test", "Ben Reviewer", quire.RoleAdmin)
		stranger := h.newUser(t, "sam@elsewhere.test", "Sam Stranger", "")
		path := "/app/s/" + f.Space.ID + "/~/events"
		if st, _, _ := h.get(t, h.client(t, h.signIn(t, stranger)), path); st != http.StatusNotFound {
			t.Fatalf("a stranger's stream: %d, want 404", st)
		}

		admin := h.client(t, h.signIn(t, h.Admin))
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		reqCtx, cancel := context.WithCancel(ctx)
		defer cancel()
		res, err := admin.Do(req.WithContext(reqCtx))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if ct := res.Header.Get("Content-Type"); res.StatusCode != http.StatusOK || ct != "text/event-stream" {
			t.Fatalf("stream: %d %q", res.StatusCode, ct)
		}
		evs := readEvents(t, res)
		if ev := nextEvent(t, evs, ""); ev.name != "unread" || ev.data != "0" {
			t.Fatalf("first event %+v, want unread 0", ev)
		}

		body := json.RawMessage(`{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","data":{},"nodes":[` +
			`{"object":"inline","type":"mention","data":{"ref":{"kind":"user","user":"` + h.Admin.ID + `"}}}]}]}`)
		if _, err := h.Svc.PostComment(ctx, service.Commenter{User: ben, Level: quire.LevelAdmin}, service.CommentScope{SpaceID: f.Space.ID},
			service.CommentInput{Page: f.Install, Body: service.DocumentInput{JSON: body}}); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for len(got) < 2 {
			ev := nextEvent(t, evs, "")
			got[ev.name] = ev.data
		}
		if a := got["activity"]; !strings.Contains(a, `"kind":"comment"`) || !strings.Contains(a, `"actorName":"Ben Reviewer"`) {
			t.Errorf("activity %s, want Ben's comment", a)
		}
		if got["unread"] != "1" {
			t.Errorf("unread %q after a mention, want 1", got["unread"])
		}

		if _, err := h.Svc.MergeChangeRequest(ctx, ben, f.Space.ID, strconv.Itoa(f.Open)); err != nil {
			t.Fatal(err)
		}
		var last string
		for {
			ev := nextEvent(t, evs, "unread")
			if ev.name == "activity" && strings.Contains(ev.data, `"kind":"merge"`) {
				if !strings.Contains(ev.data, `"number":`+strconv.Itoa(f.Open)) {
					t.Errorf("merge activity %s, want #%d", ev.data, f.Open)
				}
				last = ev.id
				break
			}
		}
		lastID, err := strconv.ParseInt(last, 10, 64)
		if err != nil || lastID <= 0 {
			t.Fatalf("the merge's event id %q, want the activity's", last)
		}

		// Away from the stream, Ben comments again; reconnecting with the
		// last event's id brings that comment first, and not the merge.
		cancel()
		if _, err := h.Svc.PostComment(ctx, service.Commenter{User: ben, Level: quire.LevelAdmin}, service.CommentScope{SpaceID: f.Space.ID},
			service.CommentInput{Page: f.Install, Body: service.DocumentInput{Markdown: ptr("While you were away.")}}); err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Last-Event-ID", last)
		res2, err := admin.Do(req.WithContext(ctx))
		if err != nil {
			t.Fatal(err)
		}
		defer res2.Body.Close()
		evs = readEvents(t, res2)
		ev := nextEvent(t, evs, "unread")
		if id, _ := strconv.ParseInt(ev.id, 10, 64); ev.name != "activity" || !strings.Contains(ev.data, `"kind":"comment"`) || id <= lastID {
			t.Errorf("first event after reconnecting %+v, want Ben's comment after %s", ev, last)
		}
	})
}
