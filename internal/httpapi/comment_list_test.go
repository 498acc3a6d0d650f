package httpapi

import (
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"
)

func TestCommentListFilters(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		cs := ts.newCommentSpace(t)
		base := spaceCommentsPath(cs.Space)
		by := []*testUser{ts.user(cComment), ts.user(cReview), ts.user(cEdit)}
		var all []string // oldest first
		for i := range 7 {
			ts.Clock.Advance(time.Millisecond)
			var extra []any
			if i%2 == 0 {
				extra = []any{"page", cs.Page}
			}
			all = append(all, str(ts.postComment(t, by[i%3].Token, base, md("Comment "+itoa(i)), extra...), "id"))
		}
		for _, i := range []int{1, 4} {
			ts.putComment(t, ts.token(cAdmin), base, all[i], map[string]any{"resolved": true})
		}
		// Comments of the change request are listed apart.
		inCR := str(ts.postComment(t, by[0].Token, crCommentsPath(cs.Space, cs.CR), md("In the change request"), "page", cs.Page), "id")
		if got := ts.openComments(t, cs.Space); got != 5 {
			t.Errorf("space counts %d open comments, want 5", got)
		}
		if got := ts.openCRComments(t, cs.Space, cs.CR); got != 1 {
			t.Errorf("change request counts %d open comments, want 1", got)
		}

		pick := func(is ...int) []string {
			out := []string{}
			for _, i := range is {
				out = append(out, all[i])
			}
			return out
		}
		authors := func(us ...*testUser) string {
			q := url.Values{}
			for _, u := range us {
				q.Add("authors", u.ID)
			}
			return q.Encode()
		}
		for _, c := range []struct {
			query string
			want  []string
		}{
			{"", pick(6, 5, 4, 3, 2, 1, 0)},
			{"order=desc", pick(6, 5, 4, 3, 2, 1, 0)},
			{"order=asc", pick(0, 1, 2, 3, 4, 5, 6)},
			{"status=all", pick(6, 5, 4, 3, 2, 1, 0)},
			{"status=open", pick(6, 5, 3, 2, 0)},
			{"status=resolved&order=asc", pick(1, 4)},
			{"targetPage=" + cs.Page, pick(6, 4, 2, 0)},
			{"targetPage=" + cs.Page + "&status=open", pick(6, 2, 0)},
			{"targetPage=nosuchpage", pick()},
			{authors(by[0]), pick(6, 3, 0)},
			{authors(by[1], by[2]) + "&order=asc", pick(1, 2, 4, 5)},
			{authors(by[1]) + "&status=resolved", pick(4, 1)},
			{authors(ts.user(cAdmin)), pick()},
		} {
			for _, limit := range []string{"2", "3", "50"} {
				var seen []string
				next := ""
				for range 10 {
					l := ts.must(t, 200, "GET", base+"?"+c.query+"&limit="+limit+"&page="+next, ts.token(cRead), nil)
					if int(l["count"].(float64)) != len(c.want) {
						t.Errorf("%s: count %v, want %d", c.query, l["count"], len(c.want))
					}
					seen = append(seen, ids(t, l, "id")...)
					if next = str(l, "next.page"); next == "" {
						break
					}
				}
				if seen == nil {
					seen = []string{}
				}
				if !slices.Equal(seen, c.want) {
					t.Errorf("%s (limit %s): %v, want %v", c.query, limit, seen, c.want)
				}
			}
		}
		crList := ts.must(t, 200, "GET", crCommentsPath(cs.Space, cs.CR)+"?targetPage="+cs.Page, ts.token(cRead), nil)
		if got := ids(t, crList, "id"); !slices.Equal(got, []string{inCR}) {
			t.Errorf("change request comments %v, want [%s]", got, inCR)
		}

		// A cursor belongs to its order.
		l := ts.must(t, 200, "GET", base+"?limit=2", ts.token(cRead), nil)
		wantContains(t, ts.mustError(t, http.StatusBadRequest, "GET", base+"?order=asc&page="+str(l, "next.page"), ts.token(cRead), nil), "page")
	})
}

func TestCommentFormats(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		cs := ts.newCommentSpace(t)
		author := ts.token(cComment)
		doc := map[string]any{"object": "document", "data": map[string]any{"schemaVersion": 1}, "nodes": []any{
			map[string]any{"object": "block", "type": "paragraph", "nodes": []any{map[string]any{"object": "text", "leaves": []any{
				map[string]any{"object": "leaf", "text": "Bold", "marks": []any{map[string]any{"object": "mark", "type": "bold"}}},
				map[string]any{"object": "leaf", "text": " move.", "marks": []any{}},
			}}}},
		}}
		for _, base := range []string{spaceCommentsPath(cs.Space), crCommentsPath(cs.Space, cs.CR)} {
			// A document in, Markdown out unless the document is asked for.
			c := ts.postComment(t, author, base, map[string]any{"document": doc})
			id := str(c, "id")
			wantFields(t, c, map[string]any{"body": map[string]any{"markdown": "**Bold** move.\n"}})
			for _, q := range []string{"", "?format=markdown"} {
				wantFields(t, ts.must(t, 200, "GET", base+"/"+id+q, ts.token(cRead), nil),
					map[string]any{"body": map[string]any{"markdown": "**Bold** move.\n"}})
			}
			got := ts.must(t, 200, "GET", base+"/"+id+"?format=document", ts.token(cRead), nil)
			wantAbsent(t, got, "body.markdown")
			wantFields(t, got, map[string]any{"body.document.object": "document", "body.document.nodes.0.type": "paragraph",
				"body.document.nodes.0.nodes.0.leaves.0.text": "Bold", "body.document.nodes.0.nodes.0.leaves.0.marks.0.type": "bold"})

			// Markdown in, a document out.
			m := ts.postComment(t, author, base, md("Some *emphasis*."))
			l := ts.must(t, 200, "GET", base+"?format=document&order=asc", ts.token(cRead), nil)
			wantFields(t, l, map[string]any{"items.1.id": m["id"], "items.1.body.document.nodes.0.nodes.0.leaves.1.marks.0.type": "italic"})
			wantAbsent(t, l, "items.1.body.markdown")

			// Replies convert the same way; a change request's reply post
			// takes the format too.
			r := ts.postReply(t, author, base, id, map[string]any{"document": doc})
			wantFields(t, r, map[string]any{"body": map[string]any{"markdown": "**Bold** move.\n"}})
			rs := ts.must(t, 200, "GET", base+"/"+id+"/replies?format=document", ts.token(cRead), nil)
			wantFields(t, rs, map[string]any{"items.0.body.document.nodes.0.nodes.0.leaves.0.text": "Bold"})
			wantFields(t, ts.must(t, 200, "GET", base+"/"+id+"/replies/"+str(r, "id")+"?format=document", ts.token(cRead), nil),
				map[string]any{"body.document.object": "document"})

			// The author edits the body in either form.
			ts.Clock.Advance(time.Millisecond)
			edited := ts.putComment(t, author, base, id, map[string]any{"body": md("Plain now.")})
			wantFields(t, edited, map[string]any{"body": map[string]any{"markdown": "Plain now.\n"}})
			wantTimestamp(t, edited, "editedAt")
			edited = ts.putComment(t, author, base, id, map[string]any{"body": map[string]any{"document": doc}})
			wantFields(t, edited, map[string]any{"body": map[string]any{"markdown": "**Bold** move.\n"}})
		}
		crBase := crCommentsPath(cs.Space, cs.CR)
		crComment := str(ts.postComment(t, author, crBase, md("x")), "id")
		r := ts.must(t, 200, "POST", crBase+"/"+crComment+"/replies?format=document", author, map[string]any{"body": md("A *reply*.")})
		wantFields(t, r, map[string]any{"body.document.nodes.0.nodes.0.leaves.1.text": "reply"})
		wantAbsent(t, r, "body.markdown")
	})
}
