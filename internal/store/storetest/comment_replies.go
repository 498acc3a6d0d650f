package storetest

import (
	"fmt"
	"testing"
	"time"

	"quire/internal/quire"
)

// repliesOf reads a comment's reply counter.
func (f *fixture) repliesOf(c *quire.Comment) int {
	f.t.Helper()
	got, err := f.st.Comment(ctx(f.t), c.SpaceID, c.ChangeRequestID, c.ID)
	must(f.t, err)
	return got.Replies
}

func commentReplyTests() []test {
	return []test{
		{"comments/replies counted, listed oldest first, edited and deleted", func(t *testing.T, f *fixture) {
			o := f.org("A")
			ada, bob := f.user("Ada", "ada@x.io"), f.user("Bob", "bob@x.io")
			sp := f.space(o, "", "a")
			c, other := f.comment(sp, nil, ada, ""), f.comment(sp, nil, ada, "")
			var rs []*quire.CommentReply
			for i := range 5 {
				rs = append(rs, f.reply(c, []*quire.User{ada, bob}[i%2]))
				equal(t, "replies", f.repliesOf(c), i+1)
			}
			f.reply(other, bob)
			got, err := f.st.CommentReply(ctx(t), c.ID, rs[1].ID)
			must(t, err)
			equal(t, "read back", *got, *rs[1])
			_, err = f.st.CommentReply(ctx(t), other.ID, rs[1].ID)
			wantCode(t, err, quire.ENOTFOUND)
			for _, size := range []int{1, 2, 50} {
				l, _ := collect(t, size, func(p quire.Page) (*quire.List[*quire.CommentReply], error) {
					return f.st.CommentReplies(ctx(t), c.ID, p)
				})
				equal(t, fmt.Sprintf("oldest first (pages of %d)", size), ids(l, replyID), ids(rs, replyID))
			}
			_, err = f.st.CommentReplies(ctx(t), c.ID, quire.Page{Cursor: "e30"})
			wantCode(t, err, quire.EINVALID)

			at := f.tick()
			body := commentBody("Edited")
			edited, err := f.st.UpdateCommentReply(ctx(t), c.ID, rs[0].ID, quire.ReplyUpdate{Body: &body, By: ada.ID, At: at})
			must(t, err)
			equal(t, "body", edited.Body, body)
			equal(t, "edited at", *edited.EditedAt, at)
			_, err = f.st.UpdateCommentReply(ctx(t), other.ID, rs[0].ID, quire.ReplyUpdate{Body: &body})
			wantCode(t, err, quire.ENOTFOUND)

			ok, err := f.st.DeleteCommentReply(ctx(t), c.ID, rs[2].ID)
			must(t, err)
			equal(t, "deleted", ok, true)
			ok, err = f.st.DeleteCommentReply(ctx(t), c.ID, rs[2].ID)
			must(t, err)
			equal(t, "deleted again", ok, false)
			ok, err = f.st.DeleteCommentReply(ctx(t), other.ID, rs[3].ID)
			must(t, err)
			equal(t, "through another comment", ok, false)
			equal(t, "replies after delete", f.repliesOf(c), 4)
			equal(t, "other replies", f.repliesOf(other), 1)

			wantCode(t, f.st.CreateCommentReply(ctx(t), &quire.CommentReply{ID: quire.NewID(), CommentID: "nope",
				Body: body, PostedBy: ada.ID, PostedAt: f.tick()}), quire.ENOTFOUND)
			wantCode(t, f.st.CreateCommentReply(ctx(t), &quire.CommentReply{ID: quire.NewID(), CommentID: c.ID,
				Body: body, PostedBy: "nosuchuser", PostedAt: f.tick()}), quire.EINVALID)
			equal(t, "replies after failures", f.repliesOf(c), 4)
		}},
		{"comments/delete takes replies and reactions along", func(t *testing.T, f *fixture) {
			o := f.org("A")
			ada := f.user("Ada", "ada@x.io")
			sp := f.space(o, "", "a")
			cr := f.changeRequest(sp, ada, quire.CROpen)
			c, resolved, inCR := f.comment(sp, nil, ada, ""), f.comment(sp, nil, ada, ""), f.comment(sp, cr, ada, "")
			r := f.reply(c, ada)
			_, err := f.st.UpdateComment(ctx(t), sp.ID, "", c.ID, quire.CommentUpdate{By: ada.ID, At: f.tick(),
				Reactions: quire.ReactionChange{Add: []string{"👍"}}})
			must(t, err)
			_, err = f.st.UpdateCommentReply(ctx(t), c.ID, r.ID, quire.ReplyUpdate{By: ada.ID, At: f.tick(),
				Reactions: quire.ReactionChange{Add: []string{"🎉"}}})
			must(t, err)
			_, err = f.st.UpdateComment(ctx(t), sp.ID, "", resolved.ID, quire.CommentUpdate{Resolved: ptr(true), By: ada.ID, At: f.tick()})
			must(t, err)
			equal(t, "start", f.openComments(sp, cr), [2]int{1, 1})

			ok, err := f.st.DeleteComment(ctx(t), sp.ID, cr.ID, c.ID)
			must(t, err)
			equal(t, "through the change request", ok, false)
			ok, err = f.st.DeleteComment(ctx(t), sp.ID, "", resolved.ID)
			must(t, err)
			equal(t, "resolved deleted", ok, true)
			equal(t, "a resolved comment was not counted", f.openComments(sp, cr), [2]int{1, 1})
			ok, err = f.st.DeleteComment(ctx(t), sp.ID, "", c.ID)
			must(t, err)
			equal(t, "deleted", ok, true)
			ok, err = f.st.DeleteComment(ctx(t), sp.ID, "", c.ID)
			must(t, err)
			equal(t, "deleted again", ok, false)
			ok, err = f.st.DeleteComment(ctx(t), sp.ID, cr.ID, inCR.ID)
			must(t, err)
			equal(t, "change request comment deleted", ok, true)
			equal(t, "counters", f.openComments(sp, cr), [2]int{0, 0})
			_, err = f.st.CommentReply(ctx(t), c.ID, r.ID)
			wantCode(t, err, quire.ENOTFOUND)

			// Nothing was left behind: the same ids can be used again and
			// come back without replies or reactions.
			again := *c
			again.Reactions = nil
			must(t, f.st.CreateComment(ctx(t), &again))
			rAgain := *r
			rAgain.Reactions = nil
			must(t, f.st.CreateCommentReply(ctx(t), &rAgain))
			got, err := f.st.Comment(ctx(t), sp.ID, "", c.ID)
			must(t, err)
			equal(t, "reactions of the new comment", len(got.Reactions), 0)
			equal(t, "replies of the new comment", got.Replies, 1)
			gotR, err := f.st.CommentReply(ctx(t), c.ID, r.ID)
			must(t, err)
			equal(t, "reactions of the new reply", len(gotR.Reactions), 0)
		}},
		{"comments/purged with their space and change request", func(t *testing.T, f *fixture) {
			o := f.org("A")
			ada := f.user("Ada", "ada@x.io")
			sp, kept := f.space(o, "", "a"), f.space(o, "", "b")
			cr := f.changeRequest(sp, ada, quire.CROpen)
			var made []*quire.Comment
			var replies []*quire.CommentReply
			for _, c := range []*quire.Comment{f.comment(sp, nil, ada, "p"), f.comment(sp, cr, ada, "p")} {
				r := f.reply(c, ada)
				_, err := f.st.UpdateComment(ctx(t), sp.ID, c.ChangeRequestID, c.ID, quire.CommentUpdate{By: ada.ID,
					At: f.tick(), Reactions: quire.ReactionChange{Add: []string{"👍"}}})
				must(t, err)
				_, err = f.st.UpdateCommentReply(ctx(t), c.ID, r.ID, quire.ReplyUpdate{By: ada.ID, At: f.tick(),
					Reactions: quire.ReactionChange{Add: []string{"🎉"}}})
				must(t, err)
				made, replies = append(made, c), append(replies, r)
			}
			survivor := f.comment(kept, nil, ada, "")
			_, err := f.st.DeleteSpace(ctx(t), sp.ID, f.tick())
			must(t, err)
			n, err := f.st.PurgeSpaces(ctx(t), time.Now())
			must(t, err)
			equal(t, "purged", n, 1)
			for _, c := range made {
				_, err := f.st.Comment(ctx(t), sp.ID, c.ChangeRequestID, c.ID)
				wantCode(t, err, quire.ENOTFOUND)
				l, err := f.st.CommentReplies(ctx(t), c.ID, quire.Page{})
				must(t, err)
				equal(t, "replies left", l.Count, 0)
			}
			_, err = f.st.Comment(ctx(t), kept.ID, "", survivor.ID)
			must(t, err)

			// The ids can be used again, in another space: no comment,
			// reply or reaction of the purged space remains.
			for i, c := range made {
				again := *c
				again.SpaceID, again.ChangeRequestID, again.Reactions = kept.ID, "", nil
				must(t, f.st.CreateComment(ctx(t), &again))
				r := *replies[i]
				r.Reactions = nil
				must(t, f.st.CreateCommentReply(ctx(t), &r))
				got, err := f.st.Comment(ctx(t), kept.ID, "", c.ID)
				must(t, err)
				equal(t, "reactions", len(got.Reactions), 0)
				equal(t, "replies", got.Replies, 1)
				gotR, err := f.st.CommentReply(ctx(t), c.ID, r.ID)
				must(t, err)
				equal(t, "reply reactions", len(gotR.Reactions), 0)
			}
			equal(t, "kept space counts its comments", f.openComments(kept, nil), [2]int{3, -1})
		}},
	}
}
