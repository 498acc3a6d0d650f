package httpapi

import (
	"net/http"
	"testing"
)

func TestCommentPermissions(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		cs := ts.newCommentSpace(t)
		for _, base := range []string{spaceCommentsPath(cs.Space), crCommentsPath(cs.Space, cs.CR)} {
			// Posting needs the comment role; reading needs read.
			for _, c := range roleCallers {
				want := http.StatusOK
				if c == cRead {
					want = http.StatusForbidden
				}
				r := ts.send(t, "POST", base, ts.token(c), map[string]any{"body": md("By " + c)})
				if r.Status != want {
					t.Errorf("%s posting: %d, want %d: %s", c, r.Status, want, r.Body)
				}
			}
			ts.mustError(t, http.StatusNotFound, "POST", base, ts.token(cGuest), map[string]any{"body": md("x")})
			ts.mustError(t, http.StatusNotFound, "GET", base, ts.token(cNonMember), nil)

			// Flags, as each caller sees a comment and a reply by the
			// commenter.
			author := ts.token(cComment)
			c := str(ts.postComment(t, author, base, md("Mine")), "id")
			r := str(ts.postReply(t, author, base, c, md("Mine too")), "id")
			for _, caller := range roleCallers {
				commenter := caller != cRead
				want := map[string]any{"view": true, "edit": caller == cComment, "reply": commenter,
					"delete": caller == cComment || caller == cAdmin}
				got := ts.must(t, 200, "GET", base+"/"+c, ts.token(caller), nil)
				wantFields(t, got, map[string]any{"permissions": want})
				got = ts.must(t, 200, "GET", base+"/"+c+"/replies/"+r, ts.token(caller), nil)
				wantFields(t, got, map[string]any{"permissions": want})
				l := ts.must(t, 200, "GET", base+"?authors="+ts.user(cComment).ID, ts.token(caller), nil)
				wantFields(t, l, map[string]any{"items.0.permissions": want})
			}

			// Only the author edits the body; any commenter resolves and
			// reacts; a reader does neither.
			for _, caller := range []string{cAdmin, cEdit, cReview} {
				msg := ts.mustError(t, http.StatusForbidden, "PUT", base+"/"+c, ts.token(caller), map[string]any{"body": md("Not yours")})
				wantContains(t, msg, "only the author")
				ts.mustError(t, http.StatusForbidden, "PUT", base+"/"+c, ts.token(caller),
					map[string]any{"body": md("Not yours"), "resolved": true})
			}
			wantFields(t, ts.must(t, 200, "GET", base+"/"+c, author, nil), map[string]any{"status": "open",
				"body": map[string]any{"markdown": "Mine\n"}})
			wantFields(t, ts.putComment(t, author, base, c, map[string]any{"body": md("Mine, edited")}),
				map[string]any{"body": map[string]any{"markdown": "Mine, edited\n"}})
			ts.mustError(t, http.StatusForbidden, "PUT", base+"/"+c, ts.token(cRead), map[string]any{"resolved": true})
			ts.mustError(t, http.StatusForbidden, "PUT", base+"/"+c, ts.token(cRead), map[string]any{"addedReactions": []string{"👍"}})
			wantFields(t, ts.putComment(t, ts.token(cReview), base, c, map[string]any{"resolved": true, "addedReactions": []string{"✅"}}),
				map[string]any{"status": "resolved", "reactions.0.emoji": "✅"})

			// The author or an admin deletes.
			for _, caller := range []string{cCreate, cEdit, cReview, cRead} {
				ts.mustError(t, http.StatusForbidden, "DELETE", base+"/"+c, ts.token(caller), nil)
			}
			ts.must(t, http.StatusResetContent, "DELETE", base+"/"+c, author, nil)
			other := str(ts.postComment(t, author, base, md("Another")), "id")
			ts.must(t, http.StatusResetContent, "DELETE", base+"/"+other, ts.token(cAdmin), nil)
		}
	})
}

func TestCommentNotFound(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		cs := ts.newCommentSpace(t)
		admin := ts.token(cAdmin)
		spaceBase, crBase := spaceCommentsPath(cs.Space), crCommentsPath(cs.Space, cs.CR)
		other := str(ts.newChangeRequest(t, cs.Space, "Other"), "id")
		otherBase := crCommentsPath(cs.Space, other)
		inSpace := ts.commentThread(t, cs.Space, "")
		inCR := ts.commentThread(t, cs.Space, cs.CR)

		// A comment is reached only through where it was posted; the
		// change request may be named by number.
		for _, path := range []string{
			crBase + "/" + inSpace["commentId"],
			spaceBase + "/" + inCR["commentId"],
			otherBase + "/" + inCR["commentId"],
			spaceBase + "/nosuchcomment",
			crPath(cs.Space, "nosuchcr", "/comments"),
			crPath(cs.Space, "99", "/comments/"+inCR["commentId"]),
			spaceBase + "/" + inSpace["commentId"] + "/replies/" + inCR["commentReplyId"],
			crBase + "/" + inCR["commentId"] + "/replies/nosuchreply",
			crBase + "/" + inSpace["commentId"] + "/replies",
		} {
			ts.mustError(t, http.StatusNotFound, "GET", path, admin, nil)
		}
		number := itoa(int(ts.must(t, 200, "GET", crPath(cs.Space, cs.CR, ""), admin, nil)["number"].(float64)))
		got := ts.must(t, 200, "GET", crPath(cs.Space, number, "/comments/"+inCR["commentId"]), admin, nil)
		wantFields(t, got, map[string]any{"target.changeRequest": cs.CR,
			"urls.location": testBaseURL + crBase + "/" + inCR["commentId"]})
		ts.mustError(t, http.StatusNotFound, "PUT", spaceBase+"/"+inCR["commentId"], admin, map[string]any{"resolved": true})
		ts.mustError(t, http.StatusNotFound, "PUT", spaceBase+"/"+inSpace["commentId"]+"/replies/nosuchreply", admin,
			map[string]any{"addedReactions": []string{"👍"}})

		// Deleting what is not there answers 204 and changes nothing.
		ts.must(t, http.StatusNoContent, "DELETE", crBase+"/"+inSpace["commentId"], admin, nil)
		ts.must(t, http.StatusNoContent, "DELETE", otherBase+"/"+inCR["commentId"], admin, nil)
		ts.must(t, http.StatusNoContent, "DELETE", spaceBase+"/"+inSpace["commentId"]+"/replies/nosuchreply", admin, nil)
		ts.must(t, 200, "GET", spaceBase+"/"+inSpace["commentId"], admin, nil)
		ts.must(t, 200, "GET", crBase+"/"+inCR["commentId"], admin, nil)

		// A deleted space takes no comment but can still be read.
		ts.must(t, http.StatusResetContent, "DELETE", "/v1/spaces/"+cs.Space, admin, nil)
		wantContains(t, ts.mustError(t, http.StatusBadRequest, "POST", spaceBase, admin, map[string]any{"body": md("Late")}), "deleted")
		wantContains(t, ts.mustError(t, http.StatusBadRequest, "PUT", spaceBase+"/"+inSpace["commentId"], admin,
			map[string]any{"resolved": true}), "deleted")
		ts.must(t, 200, "GET", spaceBase+"/"+inSpace["commentId"], admin, nil)
		ts.must(t, 200, "GET", crBase, admin, nil)
	})
}
