package httpapi

import (
	"net/http"
	"slices"
	"testing"
	"time"
)

func TestCommentThreadOnSpace(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) { reviewThread(t, ts, false) })
}

func TestCommentThreadOnChangeRequest(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) { reviewThread(t, ts, true) })
}

// reviewThread walks a full review thread on a block of a page, on the
// space or on a change request, checking the counters of open comments of
// both at every step.
func reviewThread(t *testing.T, ts *testServer, inCR bool) {
	cs := ts.newCommentSpace(t)
	base, rev := spaceCommentsPath(cs.Space), ts.spaceRevision(t, cs.Space)
	if inCR {
		base, rev = crCommentsPath(cs.Space, cs.CR), ts.crRevision(t, cs.Space, cs.CR)
	}
	counters := func(open int) {
		t.Helper()
		want := [2]int{open, 0}
		if inCR {
			want = [2]int{0, open}
		}
		if got := [2]int{ts.openComments(t, cs.Space), ts.openCRComments(t, cs.Space, cs.CR)}; got != want {
			t.Fatalf("open comments of the space and the change request: %v, want %v", got, want)
		}
	}
	author, editor, reviewer := ts.user(cComment), ts.user(cEdit), ts.user(cReview)
	counters(0)

	// Post on a block of the page.
	c := ts.postComment(t, author.Token, base, md("Is this right?"), "page", cs.Page, "node", cs.Details)
	id := str(c, "id")
	wantFields(t, c, map[string]any{
		"object": "comment", "status": "open", "replies": 0, "reactions": []any{},
		"body": map[string]any{"markdown": "Is this right?\n"},
		"postedBy": map[string]any{"object": "user", "id": author.ID, "displayName": author.Name, "email": author.Email,
			"urls": map[string]any{"location": testBaseURL + "/v1/users/" + author.ID}},
		"target.space": cs.Space, "target.revision": rev,
		"target.node":    map[string]any{"id": cs.Details, "preview": "Details."},
		"target.page.id": cs.Page, "target.page.title": "Guide", "target.page.path": "guide", "target.page.outdated": false,
		"urls":        map[string]any{"location": testBaseURL + base + "/" + id},
		"permissions": map[string]any{"view": true, "edit": true, "reply": true, "delete": true},
	})
	wantTimestamp(t, c, "postedAt")
	wantTimestamp(t, c, "target.page.createdAt")
	for _, k := range []string{"resolvedAt", "resolvedBy", "editedAt", "target.tableCell"} {
		wantAbsent(t, c, k)
	}
	if inCR {
		wantFields(t, c, map[string]any{"target.changeRequest": cs.CR})
	} else {
		wantAbsent(t, c, "target.changeRequest")
	}
	counters(1)
	if got := ts.must(t, 200, "GET", base+"/"+id, ts.token(cRead), nil); !jsonEqual(got["target"], c["target"]) {
		t.Errorf("read back target %v, want %v", got["target"], c["target"])
	}

	// A reply.
	ts.Clock.Advance(time.Millisecond)
	r := ts.postReply(t, editor.Token, base, id, md("Yes."))
	rid := str(r, "id")
	wantFields(t, r, map[string]any{"object": "comment-reply", "body": map[string]any{"markdown": "Yes.\n"},
		"postedBy.id": editor.ID, "reactions": []any{},
		"urls":        map[string]any{"location": testBaseURL + base + "/" + id + "/replies/" + rid},
		"permissions": map[string]any{"view": true, "edit": true, "reply": true, "delete": true}})
	wantTimestamp(t, r, "postedAt")
	wantFields(t, ts.must(t, 200, "GET", base+"/"+id, ts.token(cRead), nil), map[string]any{"replies": 1})
	replies := ts.must(t, 200, "GET", base+"/"+id+"/replies", ts.token(cRead), nil)
	if got := ids(t, replies, "id"); !slices.Equal(got, []string{rid}) {
		t.Errorf("replies %v, want [%s]", got, rid)
	}
	wantFields(t, ts.must(t, 200, "GET", base+"/"+id+"/replies/"+rid, ts.token(cRead), nil), map[string]any{"id": rid})
	counters(1)

	// Reactions: one per user and emoji, in the order they came.
	ts.mustError(t, http.StatusForbidden, "PUT", base+"/"+id, ts.token(cRead), map[string]any{"addedReactions": []string{"👍"}})
	ts.putComment(t, reviewer.Token, base, id, map[string]any{"addedReactions": []string{"👍"}})
	ts.Clock.Advance(time.Millisecond)
	ts.putComment(t, editor.Token, base, id, map[string]any{"addedReactions": []string{"👍", "🎉"}})
	got := ts.putComment(t, editor.Token, base, id, map[string]any{"addedReactions": []string{"👍"}})
	wantFields(t, got, map[string]any{"reactions.0.emoji": "👍", "reactions.0.count": 2,
		"reactions.0.users.0.user.id": reviewer.ID, "reactions.0.users.1.user.id": editor.ID,
		"reactions.1.emoji": "🎉", "reactions.1.count": 1, "reactions.1.users.0.user.id": editor.ID})
	wantTimestamp(t, got, "reactions.0.users.0.reactedAt")
	if n := len(got["reactions"].([]any)); n != 2 {
		t.Errorf("%d reactions, want 2", n)
	}
	got = ts.putComment(t, reviewer.Token, base, id, map[string]any{"removedReactions": []string{"👍", "🎉"}})
	wantFields(t, got, map[string]any{"reactions.0.count": 1, "reactions.0.users.0.user.id": editor.ID, "reactions.1.count": 1})
	counters(1)
	if !inCR {
		rr := ts.must(t, 200, "PUT", base+"/"+id+"/replies/"+rid, author.Token, map[string]any{"addedReactions": []string{"👀"}})
		wantFields(t, rr, map[string]any{"reactions.0.emoji": "👀", "reactions.0.users.0.user.id": author.ID,
			"permissions": map[string]any{"view": true, "edit": false, "reply": true, "delete": false}})
	}

	// Resolve, list by status, unresolve.
	list := func(query string) []string {
		t.Helper()
		return ids(t, ts.must(t, 200, "GET", base+"?"+query, ts.token(cRead), nil), "id")
	}
	got = ts.putComment(t, editor.Token, base, id, map[string]any{"resolved": true})
	wantFields(t, got, map[string]any{"status": "resolved", "resolvedBy.id": editor.ID, "replies": 1})
	wantTimestamp(t, got, "resolvedAt")
	counters(0)
	if l := list("status=open"); len(l) != 0 {
		t.Errorf("open comments %v, want none", l)
	}
	for _, q := range []string{"status=resolved", "status=all", ""} {
		if l := list(q); !slices.Equal(l, []string{id}) {
			t.Errorf("%s: %v, want [%s]", q, l, id)
		}
	}
	again := ts.putComment(t, reviewer.Token, base, id, map[string]any{"resolved": true})
	wantFields(t, again, map[string]any{"resolvedBy.id": editor.ID, "resolvedAt": got["resolvedAt"]})
	counters(0)
	got = ts.putComment(t, reviewer.Token, base, id, map[string]any{"resolved": false})
	wantFields(t, got, map[string]any{"status": "open"})
	wantAbsent(t, got, "resolvedAt")
	wantAbsent(t, got, "resolvedBy")
	counters(1)
	if l := list("status=open"); !slices.Equal(l, []string{id}) {
		t.Errorf("open comments %v, want [%s]", l, id)
	}

	// A second comment, on nothing in particular.
	ts.Clock.Advance(time.Millisecond)
	second := ts.postComment(t, reviewer.Token, base, md("Looks good overall."))
	wantAbsent(t, second, "target.page")
	wantAbsent(t, second, "target.node")
	counters(2)
	if l := list("status=open"); !slices.Equal(l, []string{str(second, "id"), id}) {
		t.Errorf("open comments %v, want newest first", l)
	}

	// Delete: not by another commenter; by its author, with its replies;
	// by an admin.
	wantContains(t, ts.mustError(t, http.StatusForbidden, "DELETE", base+"/"+id, editor.Token, nil), "author")
	counters(2)
	ts.must(t, http.StatusResetContent, "DELETE", base+"/"+id, author.Token, nil)
	counters(1)
	ts.mustError(t, http.StatusNotFound, "GET", base+"/"+id, ts.token(cAdmin), nil)
	ts.mustError(t, http.StatusNotFound, "GET", base+"/"+id+"/replies/"+rid, ts.token(cAdmin), nil)
	ts.mustError(t, http.StatusNotFound, "GET", base+"/"+id+"/replies", ts.token(cAdmin), nil)
	ts.must(t, http.StatusNoContent, "DELETE", base+"/"+id, author.Token, nil)
	ts.must(t, http.StatusResetContent, "DELETE", base+"/"+str(second, "id"), ts.token(cAdmin), nil)
	counters(0)
	if l := list(""); len(l) != 0 {
		t.Errorf("comments left: %v", l)
	}
}

func TestCommentRepliesOfSpaceComments(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		sp := ts.newSpace(t, "Replies")
		base := spaceCommentsPath(sp)
		author, other := ts.user(cComment), ts.user(cReview)
		c := str(ts.postComment(t, ts.token(cAdmin), base, md("Thread")), "id")
		var want []string
		for i := range 5 {
			ts.Clock.Advance(time.Millisecond)
			by := []*testUser{author, other}[i%2]
			want = append(want, str(ts.postReply(t, by.Token, base, c, md("Reply "+itoa(i))), "id"))
		}
		wantFields(t, ts.must(t, 200, "GET", base+"/"+c, ts.token(cRead), nil), map[string]any{"replies": 5})

		// Oldest first, paged.
		var seen []string
		next := ""
		for range 10 {
			l := ts.must(t, 200, "GET", base+"/"+c+"/replies?limit=2&page="+next, ts.token(cRead), nil)
			wantFields(t, l, map[string]any{"count": 5})
			seen = append(seen, ids(t, l, "id")...)
			if next = str(l, "next.page"); next == "" {
				break
			}
		}
		if !slices.Equal(seen, want) {
			t.Errorf("replies %v, want %v", seen, want)
		}

		// Only the author edits a reply's body; the author or an admin
		// deletes it.
		path := base + "/" + c + "/replies/" + want[0]
		wantContains(t, ts.mustError(t, http.StatusForbidden, "PUT", path, other.Token, map[string]any{"body": md("Mine now")}), "author")
		ts.Clock.Advance(time.Millisecond)
		edited := ts.must(t, 200, "PUT", path, author.Token, map[string]any{"body": md("Reply 0, edited")})
		wantFields(t, edited, map[string]any{"body": map[string]any{"markdown": "Reply 0, edited\n"}})
		wantTimestamp(t, edited, "editedAt")
		wantContains(t, ts.mustError(t, http.StatusForbidden, "DELETE", path, other.Token, nil), "author")
		ts.must(t, http.StatusResetContent, "DELETE", path, author.Token, nil)
		ts.must(t, http.StatusNoContent, "DELETE", path, author.Token, nil)
		ts.must(t, http.StatusResetContent, "DELETE", base+"/"+c+"/replies/"+want[1], ts.token(cAdmin), nil)
		ts.mustError(t, http.StatusForbidden, "DELETE", base+"/"+c+"/replies/"+want[2], ts.token(cEdit), nil)
		wantFields(t, ts.must(t, 200, "GET", base+"/"+c, ts.token(cRead), nil), map[string]any{"replies": 3})
		ts.must(t, http.StatusNoContent, "DELETE", base+"/nosuchcomment/replies/"+want[2], ts.token(cAdmin), nil)
		ts.mustError(t, http.StatusNotFound, "POST", base+"/nosuchcomment/replies", ts.token(cAdmin), map[string]any{"body": md("x")})
		ts.mustError(t, http.StatusForbidden, "POST", base+"/"+c+"/replies", ts.token(cRead), map[string]any{"body": md("x")})
	})
}
