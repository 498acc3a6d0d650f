package httpapi

import (
	"encoding/json"
	"net/http"
	"testing"
)

// commentMarkdown is a Markdown body with a mark, so that its document
// differs from its text.
const commentMarkdown = "Is **this** right?"

// bodyOp is an operation taking a comment body: send posts or puts the
// body and returns the comment or reply it made or changed.
type bodyOp struct {
	name, field string
	send        func(t *testing.T, body any, want int) map[string]any
}

// commentBodyOps are the operations taking a comment, reply or review
// body, on one space of ts.
func commentBodyOps(t *testing.T, ts *testServer) []bodyOp {
	t.Helper()
	admin := ts.token(cAdmin)
	space := ts.newSpace(t, "Bodies")
	cr := ts.authoredCR(t, space, "Change")
	thread := ts.commentThread(t, space, "")
	crThread := ts.commentThread(t, space, cr)
	comment := commentPathOf(thread)
	call := func(method, path, field string, rest map[string]any) func(t *testing.T, body any, want int) map[string]any {
		return func(t *testing.T, body any, want int) map[string]any {
			t.Helper()
			b := map[string]any{field: body}
			for k, v := range rest {
				b[k] = v
			}
			r := ts.send(t, method, path, admin, b)
			if r.Status != want {
				t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.Status, want, r.Body)
			}
			return r.obj(t)
		}
	}
	reviewCall := call("POST", crPath(space, cr, "/reviews"), "comment", map[string]any{"status": "approved"})
	return []bodyOp{
		{"postCommentInSpace", "body", call("POST", spaceCommentsPath(space), "body", nil)},
		{"postCommentInChangeRequest", "body", call("POST", crCommentsPath(space, cr), "body", nil)},
		{"updateCommentInSpace", "body", call("PUT", comment, "body", nil)},
		{"updateCommentInChangeRequest", "body", call("PUT", commentPathOf(crThread), "body", nil)},
		{"postCommentReplyInSpace", "body", call("POST", comment+"/replies", "body", nil)},
		{"postCommentReplyInChangeRequest", "body", call("POST", commentPathOf(crThread)+"/replies", "body", nil)},
		{"updateCommentReplyInSpace", "body", call("PUT", replyPathOf(thread), "body", nil)},
		{"submitChangeRequestReview", "comment", func(t *testing.T, body any, want int) map[string]any {
			t.Helper()
			out := reviewCall(t, body, want)
			if want != http.StatusCreated {
				return out
			}
			c, _ := out["comment"].(map[string]any)
			return c
		}},
	}
}

// TestCommentBodyAsMarkdownString sends comment, reply and review bodies
// as a plain Markdown string: each is read as the document's markdown, so
// the stored body is the same as for {"markdown": ...}.
func TestCommentBodyAsMarkdownString(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		for _, op := range commentBodyOps(t, ts) {
			t.Run(op.name, func(t *testing.T) {
				ok := http.StatusOK
				if op.name == "submitChangeRequestReview" {
					ok = http.StatusCreated
				}
				// Each form is read back at once: the updates change the
				// same comment twice.
				read := func(body any) (map[string]any, any) {
					out := op.send(t, body, ok)
					doc := ts.must(t, http.StatusOK, "GET", locationPath(t, out)+"?format=document", ts.token(cAdmin), nil)
					return out, field(doc, "body.document")
				}
				fromObject, objDoc := read(md(commentMarkdown))
				fromString, strDoc := read(commentMarkdown)
				want := map[string]any{"markdown": "Is **this** right?\n"}
				if !jsonEqual(fromObject["body"], want) || !jsonEqual(fromString["body"], want) {
					t.Fatalf("bodies: from an object %v, from a string %v, want %v", fromObject["body"], fromString["body"], want)
				}
				if !sameDocument(objDoc, strDoc) {
					t.Errorf("document of the string body %v, want the conversion of its Markdown %v", strDoc, objDoc)
				}
			})
		}
	})
}

// TestCommentBodyStringMalformed checks that a body that is neither a
// string nor a document, or an empty string, is refused naming the field.
func TestCommentBodyStringMalformed(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		for _, op := range commentBodyOps(t, ts) {
			t.Run(op.name, func(t *testing.T) {
				for name, body := range map[string]any{"number": 3, "boolean": true, "array": []any{"x"}, "empty string": "", "blank string": " \n"} {
					r := op.send(t, body, http.StatusBadRequest)
					msg, _ := field(r, "error.message").(string)
					if !startsWithField(msg, op.field) {
						t.Errorf("%s: message %q does not name %s", name, msg, op.field)
					}
				}
			})
		}
	})
}

// TestCommentBodySchema checks that the OpenAPI document declares a
// comment body as a Markdown string or a document object.
func TestCommentBodySchema(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, "sqlite")
	r := ts.send(t, "GET", "/v1/openapi.json", "", nil)
	var doc struct {
		Paths map[string]map[string]struct {
			RequestBody struct {
				Content map[string]struct {
					Schema json.RawMessage `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(r.Body, &doc); err != nil {
		t.Fatal(err)
	}
	resolve := func(raw json.RawMessage) map[string]any {
		var s map[string]any
		_ = json.Unmarshal(raw, &s)
		if ref, ok := s["$ref"].(string); ok {
			_ = json.Unmarshal(doc.Components.Schemas[ref[len("#/components/schemas/"):]], &s)
		}
		return s
	}
	for _, c := range []struct{ path, method, field string }{
		{"/v1/spaces/{spaceId}/comments", "post", "body"},
		{"/v1/spaces/{spaceId}/comments/{commentId}/replies", "post", "body"},
		{"/v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews", "post", "comment"},
	} {
		body := resolve(doc.Paths[c.path][c.method].RequestBody.Content["application/json"].Schema)
		prop, _ := field(body, "properties."+c.field).(map[string]any)
		raw, _ := json.Marshal(prop)
		prop = resolve(raw)
		alts, _ := prop["oneOf"].([]any)
		if len(alts) != 2 {
			t.Fatalf("%s %s: %s is %v, want oneOf a string and a document", c.method, c.path, c.field, prop)
		}
		str, _ := alts[0].(map[string]any)
		raw, _ = json.Marshal(alts[1])
		obj := resolve(raw)
		if str["type"] != "string" || obj["type"] != "object" || field(obj, "properties.markdown") == nil || field(obj, "properties.document") == nil {
			t.Errorf("%s %s: %s alternatives %v and %v, want a string and the document object", c.method, c.path, c.field, str, obj)
		}
	}
}

// locationPath returns the path of an object's urls.location.
func locationPath(t *testing.T, obj map[string]any) string {
	t.Helper()
	loc := str(obj, "urls.location")
	if len(loc) < len(testBaseURL) || loc[:len(testBaseURL)] != testBaseURL {
		t.Fatalf("location %q is not under %s", loc, testBaseURL)
	}
	return loc[len(testBaseURL):]
}

// sameDocument reports whether two stored documents are equal once the
// keys of their nodes, which each document draws anew, are left out.
func sameDocument(a, b any) bool {
	return a != nil && jsonEqual(withoutKeys(a), withoutKeys(b))
}

// startsWithField reports whether an error message begins by naming the
// field (or a member of it).
func startsWithField(msg, field string) bool {
	return len(msg) > len(field) && msg[:len(field)] == field && (msg[len(field)] == ':' || msg[len(field)] == '.')
}
