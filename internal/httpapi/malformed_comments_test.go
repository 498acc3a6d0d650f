package httpapi

import (
	"strings"
	"testing"
)

// The malformed-input cases of the comment routes, on a thread posted by
// the admin (the caller of the checks).

// threadSetup builds the setup of a case: a fresh space, with a change
// request when inCR, and a thread on it.
func threadSetup(inCR bool) func(t *testing.T, ts *testServer) map[string]string {
	return func(t *testing.T, ts *testServer) map[string]string {
		t.Helper()
		sp := ts.newSpace(t, "Space")
		cr := ""
		if inCR {
			cr = str(ts.newChangeRequest(t, sp, "Change"), "id")
		}
		return ts.commentThread(t, sp, cr)
	}
}

// commentPathOf and replyPathOf name the thread of the parameters.
func commentPathOf(ps map[string]string) string { return commentsBaseOf(ps) + "/" + ps["commentId"] }
func replyPathOf(ps map[string]string) string {
	return commentPathOf(ps) + "/replies/" + ps["commentReplyId"]
}

// threadSnapshot reads the thread's comments, the comment and its reply,
// and the counters of the space (and change request).
func threadSnapshot(t *testing.T, ts *testServer, ps map[string]string) string {
	t.Helper()
	return snap(spacePathOf, commentsBaseOf, commentPathOf, replyPathOf, func(ps map[string]string) string {
		if ps["changeRequestId"] != "" {
			return crPathOf(ps)
		}
		return spacePathOf(ps)
	})(t, ts, ps)
}

// manyEmoji returns n distinct reactions.
func manyEmoji(n int) []string {
	out := make([]string, 0, n)
	for i := range n {
		out = append(out, strings.Repeat("e", i+1))
	}
	return out
}

// bodyWrongTypes are the wrong-typed bodies every body-taking comment
// operation refuses, merged into base: a body is a Markdown string or a
// document object.
func bodyWrongTypes(base map[string]any) map[string]map[string]any {
	return map[string]map[string]any{
		"body":     withField(base, "body", 3),
		"markdown": withField(base, "body", map[string]any{"markdown": 3}),
		"document": withField(base, "body", map[string]any{"document": "text"}),
	}
}

// bodyInvalid are the bodies every comment or reply post refuses.
func bodyInvalid(base map[string]any) []invalidBody {
	both := map[string]any{"markdown": "x", "document": map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{}}}
	return []invalidBody{
		{"empty body", withField(base, "body", map[string]any{}), "body: must not be empty"},
		{"blank markdown", withField(base, "body", md("  \n ")), "body: must not be empty"},
		{"document without blocks", withField(base, "body", map[string]any{"document": both["document"]}), "body: must not be empty"},
		{"markdown and document", withField(base, "body", both), "body"},
		{"not a document", withField(base, "body", map[string]any{"document": map[string]any{"object": "block"}}), "body.document"},
	}
}

// bodyUnknown are the bodies with an undeclared member in the comment body.
func bodyUnknown(base map[string]any) []invalidBody {
	return []invalidBody{
		{"unknown field in the body", withField(base, "body", map[string]any{"markdown": "x", "html": "<p>x</p>"}), "body.html"},
	}
}

// reactionInvalid are the reaction lists every update refuses.
func reactionInvalid() []invalidBody {
	return []invalidBody{
		{"21 reactions", map[string]any{"addedReactions": manyEmoji(21)}, "addedReactions"},
		{"21 removed reactions", map[string]any{"removedReactions": manyEmoji(21)}, "removedReactions"},
		{"emoji over 50 characters", map[string]any{"addedReactions": []string{strings.Repeat("x", 51)}}, "addedReactions"},
		{"empty emoji", map[string]any{"removedReactions": []string{""}}, "removedReactions"},
		{"empty body", map[string]any{"body": map[string]any{}}, "body: must not be empty"},
	}
}

// commentPostCase is the case of a comment post.
func commentPostCase(inCR bool) bodyCase {
	valid := map[string]any{"body": md("A comment")}
	wrong := bodyWrongTypes(valid)
	wrong["page"] = withField(valid, "page", 1)
	wrong["node"] = withField(valid, "node", true)
	wrong["tableCell"] = withField(valid, "tableCell", "A1")
	wrong["record"] = withField(valid, "tableCell", map[string]any{"record": 1, "definition": "d"})
	invalid := append(bodyInvalid(valid),
		invalidBody{"unknown page", withField(valid, "page", "nosuchpage"), "page"},
		invalidBody{"node without page", withField(valid, "node", "k1"), "page"},
		invalidBody{"table cell without page", withField(valid, "tableCell", map[string]any{"record": "r", "definition": "d"}), "page"},
		invalidBody{"table cell without definition", withField(valid, "tableCell", map[string]any{"record": "r"}), "definition"},
	)
	unknown := append(bodyUnknown(valid),
		invalidBody{"unknown field in the table cell", withField(valid, "tableCell", map[string]any{"record": "r", "definition": "d", "row": 1}), "tableCell.row"})
	return bodyCase{setup: threadSetup(inCR), valid: valid, wrongType: wrong, required: []string{"body"},
		invalid: invalid, unknown: unknown, snapshot: threadSnapshot}
}

// commentUpdateCase is the case of a comment update.
func commentUpdateCase(inCR bool) bodyCase {
	valid := map[string]any{"resolved": true}
	wrong := bodyWrongTypes(valid)
	wrong["resolved"] = map[string]any{"resolved": "yes"}
	wrong["addedReactions"] = map[string]any{"addedReactions": "👍"}
	wrong["removedReactions"] = map[string]any{"removedReactions": []any{1}}
	return bodyCase{setup: threadSetup(inCR), valid: valid, wrongType: wrong, invalid: reactionInvalid(), snapshot: threadSnapshot}
}

// replyPostCase is the case of a reply post.
func replyPostCase(inCR bool) bodyCase {
	valid := map[string]any{"body": md("A reply")}
	return bodyCase{setup: threadSetup(inCR), valid: valid, wrongType: bodyWrongTypes(valid), required: []string{"body"},
		invalid: bodyInvalid(valid), unknown: bodyUnknown(valid), snapshot: threadSnapshot}
}

// replyUpdateCase is the case of a reply update.
func replyUpdateCase() bodyCase {
	valid := map[string]any{"addedReactions": []string{"👍"}}
	wrong := bodyWrongTypes(valid)
	wrong["addedReactions"] = map[string]any{"addedReactions": map[string]any{"emoji": "👍"}}
	return bodyCase{setup: threadSetup(false), valid: valid, wrongType: wrong, invalid: reactionInvalid(), snapshot: threadSnapshot}
}
