package httpapi

import (
	"net/http"
	"testing"
)

// The authorization matrix cases of the comment routes. Each builds a
// fresh thread posted by the admin: a comment with one reply, on the
// space itself or on a change request of it.

// thread creates a space the matrix callers may read with a comment and a
// reply by the admin, on a change request when inCR, and returns the path
// parameters naming them.
func (m *matrix) thread(t *testing.T, inCR bool) map[string]string {
	t.Helper()
	sp := m.space(t)
	cr := ""
	if inCR {
		cr = str(m.ts.newChangeRequest(t, sp, "Matrix change"), "id")
	}
	return m.ts.commentThread(t, sp, cr)
}

// commentsBaseOf is the comments path of the space or change request in
// the parameters.
func commentsBaseOf(ps map[string]string) string {
	if ps["changeRequestId"] != "" {
		return crCommentsPath(ps["spaceId"], ps["changeRequestId"])
	}
	return spaceCommentsPath(ps["spaceId"])
}

// adminOnly refuses every caller but the admin with 403: deleting what the
// admin posted is for its author and space admins.
func adminOnly(c string) int {
	if c == cAdmin {
		return 0
	}
	return http.StatusForbidden
}

// commentRead is the case of a read of a thread.
func commentRead(inCR bool) authzCase {
	return authzCase{ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return m.thread(t, inCR), nil
	}}
}

// commentPost is the case of a comment post; a refused post counts
// nothing.
func commentPost(inCR bool) authzCase {
	return authzCase{ok: 200,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return m.thread(t, inCR), map[string]any{"body": md("New comment")}
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			l := m.ts.must(t, 200, "GET", commentsBaseOf(ps), m.ts.token(cAdmin), nil)
			wantFields(t, l, map[string]any{"count": 1})
		}}
}

// commentResolve is the case of resolving a comment, which any commenter
// may do.
func commentResolve(inCR bool) authzCase {
	return authzCase{ok: 200,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return m.thread(t, inCR), map[string]any{"resolved": true}
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			c := m.ts.must(t, 200, "GET", commentsBaseOf(ps)+"/"+ps["commentId"], m.ts.token(cAdmin), nil)
			wantFields(t, c, map[string]any{"status": "open"})
		}}
}

// commentDelete is the case of deleting the admin's comment.
func commentDelete(inCR bool) authzCase {
	return authzCase{ok: http.StatusResetContent, beyond: adminOnly,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) { return m.thread(t, inCR), nil },
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			c := m.ts.must(t, 200, "GET", commentsBaseOf(ps)+"/"+ps["commentId"], m.ts.token(cAdmin), nil)
			wantFields(t, c, map[string]any{"replies": 1})
		}}
}

// replyPost is the case of a reply post; a refused post counts nothing.
func replyPost(inCR bool) authzCase {
	return authzCase{ok: 200,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return m.thread(t, inCR), map[string]any{"body": md("New reply")}
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			c := m.ts.must(t, 200, "GET", commentsBaseOf(ps)+"/"+ps["commentId"], m.ts.token(cAdmin), nil)
			wantFields(t, c, map[string]any{"replies": 1})
		}}
}

// replyReact is the case of reacting to a reply, which any commenter may
// do.
func replyReact() authzCase {
	return authzCase{ok: 200,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return m.thread(t, false), map[string]any{"addedReactions": []string{"👍"}}
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			r := m.ts.must(t, 200, "GET", commentsBaseOf(ps)+"/"+ps["commentId"]+"/replies/"+ps["commentReplyId"], m.ts.token(cAdmin), nil)
			wantFields(t, r, map[string]any{"reactions": []any{}})
		}}
}

// replyDelete is the case of deleting the admin's reply.
func replyDelete() authzCase {
	return authzCase{ok: http.StatusResetContent, beyond: adminOnly,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) { return m.thread(t, false), nil },
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			m.ts.must(t, 200, "GET", commentsBaseOf(ps)+"/"+ps["commentId"]+"/replies/"+ps["commentReplyId"], m.ts.token(cAdmin), nil)
		}}
}
