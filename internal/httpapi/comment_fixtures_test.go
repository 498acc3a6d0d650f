package httpapi

import (
	"net/http"
	"testing"
)

// spaceCommentsPath is the path of a space's comments.
func spaceCommentsPath(space string) string { return "/v1/spaces/" + space + "/comments" }

// crCommentsPath is the path of a change request's comments.
func crCommentsPath(space, cr string) string { return crPath(space, cr, "/comments") }

// postComment posts a comment with a body under a comments path; extra
// adds target fields (page, node, tableCell).
func (ts *testServer) postComment(t *testing.T, token, base string, body map[string]any, extra ...any) map[string]any {
	t.Helper()
	return ts.must(t, http.StatusOK, "POST", base, token, withPairs(map[string]any{"body": body}, extra...))
}

// postReply posts a reply to a comment.
func (ts *testServer) postReply(t *testing.T, token, base, comment string, body map[string]any) map[string]any {
	t.Helper()
	return ts.must(t, http.StatusOK, "POST", base+"/"+comment+"/replies", token, map[string]any{"body": body})
}

// putComment updates a comment and returns it.
func (ts *testServer) putComment(t *testing.T, token, base, comment string, body map[string]any) map[string]any {
	t.Helper()
	return ts.must(t, http.StatusOK, "PUT", base+"/"+comment, token, body)
}

// openComments reads the count of open comments of a space.
func (ts *testServer) openComments(t *testing.T, space string) int {
	t.Helper()
	return int(ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+space, ts.token(cAdmin), nil)["comments"].(float64))
}

// openCRComments reads the count of open comments of a change request.
func (ts *testServer) openCRComments(t *testing.T, space, cr string) int {
	t.Helper()
	return int(ts.must(t, http.StatusOK, "GET", crPath(space, cr, ""), ts.token(cAdmin), nil)["comments"].(float64))
}

// blockKeys returns the keys of a page's top-level blocks, read at a
// content base path (/v1/spaces/{s} or .../change-requests/{c}).
func (ts *testServer) blockKeys(t *testing.T, base, page string) []string {
	t.Helper()
	p := ts.must(t, http.StatusOK, "GET", pageRoute(base, page)+"?format=document", ts.token(cAdmin), nil)
	var keys []string
	nodes, _ := field(p, "document.nodes").([]any)
	for _, n := range nodes {
		keys = append(keys, str(n, "key"))
	}
	if len(keys) == 0 {
		t.Fatalf("page %s has no blocks: %v", page, p)
	}
	return keys
}

// commentSpace is a space whose main content holds the page Guide with
// two paragraphs, and an open change request on it.
type commentSpace struct {
	Space, Page, CR string
	// Keys of the page's two paragraphs, "Intro." and "Details.".
	Intro, Details string
}

// newCommentSpace creates a commentSpace.
func (ts *testServer) newCommentSpace(t *testing.T) *commentSpace {
	t.Helper()
	f := &commentSpace{Space: ts.newSpace(t, "Commented")}
	first := str(ts.newChangeRequest(t, f.Space, "Initial content"), "id")
	res := ts.writeContent(t, f.Space, first, insertPage("Guide", "Intro.\n\nDetails."))
	f.Page = changedPage(t, res, 0)
	ts.mergeCR(t, f.Space, first)
	keys := ts.blockKeys(t, "/v1/spaces/"+f.Space, f.Page)
	f.Intro, f.Details = keys[0], keys[1]
	f.CR = str(ts.newChangeRequest(t, f.Space, "Review me"), "id")
	return f
}

// commentThread posts, as the admin, a comment with one reply on a space
// (cr "") or on one of its change requests, and returns the path
// parameters naming them.
func (ts *testServer) commentThread(t *testing.T, space, cr string) map[string]string {
	t.Helper()
	ps := pathParams("spaceId", space)
	base := spaceCommentsPath(space)
	if cr != "" {
		ps["changeRequestId"] = cr
		base = crCommentsPath(space, cr)
	}
	ps["commentId"] = str(ts.postComment(t, ts.token(cAdmin), base, md("A comment")), "id")
	ps["commentReplyId"] = str(ts.postReply(t, ts.token(cAdmin), base, ps["commentId"], md("A reply")), "id")
	return ps
}
