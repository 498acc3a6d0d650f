package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"quire/internal/document"
	"quire/internal/quire"
)

// deepBodies are page and comment bodies nested far past the document
// depth limit, as Markdown and as a JSON document.
func deepBodies(t *testing.T) map[string]map[string]any {
	t.Helper()
	var doc strings.Builder
	doc.WriteString(`{"object":"document","data":{},"nodes":[`)
	doc.WriteString(strings.Repeat(`{"object":"block","type":"blockquote","nodes":[`, 3000))
	doc.WriteString(`{"object":"block","type":"paragraph","nodes":[]}`)
	doc.WriteString(strings.Repeat("]}", 3000) + "]}")
	var raw any
	if err := json.Unmarshal([]byte(doc.String()), &raw); err != nil {
		t.Fatal(err)
	}
	return map[string]map[string]any{
		"list":     md(strings.Repeat("- ", 3000) + "x"),
		"quote":    md(strings.Repeat("> ", 3000) + "x"),
		"hint":     md(strings.Repeat("{% hint style=\"info\" %}\n", 3000) + "x\n" + strings.Repeat("{% endhint %}\n", 3000)),
		"document": {"document": raw},
	}
}

// wantDepthError checks that a refusal names the field and the limit.
func wantDepthError(t *testing.T, msg, field string) {
	t.Helper()
	wantContains(t, msg, field)
	wantContains(t, msg, "64")
}

func TestDeepPageBodyIsRefused(t *testing.T) {
	if document.MaxDepth != 64 {
		t.Fatalf("MaxDepth %d; update the expected message", document.MaxDepth)
	}
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		sp := ts.newSpace(t, "Space")
		cr := str(ts.newChangeRequest(t, sp, "Change"), "id")
		for name, body := range deepBodies(t) {
			change := map[string]any{"operation": "insert_page", "title": "Deep", "document": body}
			msg := ts.mustError(t, http.StatusBadRequest, "POST", crPath(sp, cr, "/content"), ts.token(cAdmin),
				map[string]any{"changes": []any{change}})
			field := "changes[0].document.markdown"
			if name == "document" {
				field = "changes[0].document.document"
			}
			wantDepthError(t, msg, field)
		}
		// A body nested within the limit is accepted.
		ts.writeContent(t, sp, cr, insertPage("Nested", strings.Repeat("> ", 20)+"x"))
	})
}

func TestDeepCommentBodyIsRefused(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		sp := ts.newSpace(t, "Space")
		for name, body := range deepBodies(t) {
			msg := ts.mustError(t, http.StatusBadRequest, "POST", spaceCommentsPath(sp), ts.token(cAdmin),
				map[string]any{"body": body})
			field := "body.markdown"
			if name == "document" {
				field = "body.document"
			}
			wantDepthError(t, msg, field)
		}
		ts.postComment(t, ts.token(cAdmin), spaceCommentsPath(sp), md(strings.Repeat("- ", 20)+"x"))
	})
}

func TestLargePageBodyIsRefused(t *testing.T) {
	limit := strconv.Itoa(document.MaxNodes)
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		sp := ts.newSpace(t, "Space")
		cr := str(ts.newChangeRequest(t, sp, "Change"), "id")
		change := map[string]any{"operation": "insert_page", "title": "Wide",
			"document": md(strings.Repeat("[", document.MaxNodes+1))}
		msg := ts.mustError(t, http.StatusBadRequest, "POST", crPath(sp, cr, "/content"), ts.token(cAdmin),
			map[string]any{"changes": []any{change}})
		wantContains(t, msg, "changes[0].document.markdown")
		wantContains(t, msg, limit)

		msg = ts.mustError(t, http.StatusBadRequest, "POST", spaceCommentsPath(sp), ts.token(cAdmin),
			map[string]any{"body": md(strings.Repeat("- x\n", document.MaxNodes))})
		wantContains(t, msg, "body.markdown")
		wantContains(t, msg, limit)
	})
}

func TestLinkDefinitionCommentBodyIsRefused(t *testing.T) {
	// One paragraph of 110,000 definitions, a body just under 1 MiB: each
	// line is a block start and a definition against the node limit.
	var b strings.Builder
	for i := 0; i < 110_000; i++ {
		b.WriteString("[a]: /x\n")
	}
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		sp := ts.newSpace(t, "Space")
		msg := ts.mustError(t, http.StatusBadRequest, "POST", spaceCommentsPath(sp), ts.token(cComment),
			map[string]any{"body": md(b.String())})
		wantContains(t, msg, "body.markdown")
		wantContains(t, msg, "link definitions")
		wantContains(t, msg, strconv.Itoa(document.MaxNodes))
		// Fewer definitions make a comment.
		ts.postComment(t, ts.token(cComment), spaceCommentsPath(sp), md(strings.Repeat("[a]: /x\n", 1000)+"\n[a]"))
	})
}

func TestDeepStoredCommentStillReads(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		sp := ts.newSpace(t, "Space")
		id := str(ts.postComment(t, ts.token(cAdmin), spaceCommentsPath(sp), md("shallow")), "id")
		// A body stored before the depth limit existed.
		deep := json.RawMessage(`{"object":"document","data":{},"nodes":[` +
			strings.Repeat(`{"object":"block","type":"blockquote","nodes":[`, 100) +
			`{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"deep","marks":[]}]}]}` +
			strings.Repeat("]}", 100) + "]}")
		if _, err := ts.Store.UpdateComment(context.Background(), sp, "", id, quire.CommentUpdate{Body: &deep, By: ts.Users[cAdmin].ID}); err != nil {
			t.Fatal(err)
		}
		got := ts.must(t, http.StatusOK, "GET", spaceCommentsPath(sp)+"/"+id, ts.token(cAdmin), nil)
		wantContains(t, str(got, "body.markdown"), "deep")
	})
}
