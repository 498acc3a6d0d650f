package storetest

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"quire/internal/quire"
)

func commentID(c *quire.Comment) string    { return c.ID }
func replyID(r *quire.CommentReply) string { return r.ID }

// commentBody is a small stored comment body.
func commentBody(text string) json.RawMessage {
	return json.RawMessage(`{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"` + text + `","marks":[]}]}]}]}`)
}

// comment posts an open comment of a space (cr nil) or of a change
// request, on a page ("" for none).
func (f *fixture) comment(sp *quire.Space, cr *quire.ChangeRequest, u *quire.User, page string) *quire.Comment {
	f.t.Helper()
	c := &quire.Comment{ID: quire.NewID(), SpaceID: sp.ID, Revision: sp.Revision, Body: commentBody("Hello"),
		PostedBy: u.ID, PostedAt: f.tick(), Status: quire.CommentOpen}
	if cr != nil {
		c.ChangeRequestID, c.Revision = cr.ID, cr.Revision
	}
	if page != "" {
		c.Target = quire.CommentTarget{Page: page, PageTitle: "Page " + page, PagePath: "page-" + page}
	}
	must(f.t, f.st.CreateComment(ctx(f.t), c))
	return c
}

// reply posts a reply to a comment.
func (f *fixture) reply(c *quire.Comment, u *quire.User) *quire.CommentReply {
	f.t.Helper()
	r := &quire.CommentReply{ID: quire.NewID(), CommentID: c.ID, Body: commentBody("Indeed"), PostedBy: u.ID, PostedAt: f.tick()}
	must(f.t, f.st.CreateCommentReply(ctx(f.t), r))
	return r
}

// openComments reads the counters of open comments of a space and of a
// change request (cr nil reads only the space's, reporting -1 for it).
func (f *fixture) openComments(sp *quire.Space, cr *quire.ChangeRequest) [2]int {
	f.t.Helper()
	s, err := f.st.Space(ctx(f.t), sp.ID)
	must(f.t, err)
	out := [2]int{s.Comments, -1}
	if cr != nil {
		c, err := f.st.ChangeRequest(ctx(f.t), sp.ID, cr.ID)
		must(f.t, err)
		out[1] = c.Comments
	}
	return out
}

// reactionsOf renders reactions as "emoji:user,user" strings.
func reactionsOf(rs []quire.Reaction) []string {
	out := []string{}
	for _, r := range rs {
		s := r.Emoji + ":"
		for i, u := range r.Users {
			if i > 0 {
				s += ","
			}
			s += u.UserID
		}
		out = append(out, s)
	}
	return out
}

func commentTests() []test {
	return append([]test{
		{"comments/create and read, scoped to the space or the change request", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			sp, other := f.space(o, "", "a"), f.space(o, "", "b")
			cr := f.changeRequest(sp, u, quire.CROpen)
			at := f.tick()
			c := &quire.Comment{ID: quire.NewID(), SpaceID: sp.ID, Revision: "r1", Body: commentBody("Hi"),
				Target: quire.CommentTarget{Page: "p1", PageTitle: "Intro", PageEmoji: "1f44b", PageIcon: "star",
					PagePath: "intro", Node: "k1", NodePreview: "Some text", TableRecord: "rec", TableDefinition: "def"},
				PostedBy: u.ID, PostedAt: at, Status: quire.CommentOpen}
			must(t, f.st.CreateComment(ctx(t), c))
			got, err := f.st.Comment(ctx(t), sp.ID, "", c.ID)
			must(t, err)
			equal(t, "read back", *got, *c)
			inCR := f.comment(sp, cr, u, "p1")
			got, err = f.st.Comment(ctx(t), sp.ID, cr.ID, inCR.ID)
			must(t, err)
			equal(t, "change request comment", *got, *inCR)
			for _, k := range [][3]string{{sp.ID, cr.ID, c.ID}, {sp.ID, "", inCR.ID}, {other.ID, "", c.ID},
				{other.ID, cr.ID, inCR.ID}, {sp.ID, "", "nope"}} {
				_, err := f.st.Comment(ctx(t), k[0], k[1], k[2])
				wantCode(t, err, quire.ENOTFOUND)
			}
			equal(t, "open counters", f.openComments(sp, cr), [2]int{1, 1})
			equal(t, "other space", f.openComments(other, nil), [2]int{0, -1})

			// A failed create counts nothing.
			dup := *c
			wantCode(t, f.st.CreateComment(ctx(t), &dup), quire.ECONFLICT)
			stranger := *c
			stranger.ID, stranger.PostedBy = quire.NewID(), "nosuchuser"
			wantCode(t, f.st.CreateComment(ctx(t), &stranger), quire.EINVALID)
			nowhere := *c
			nowhere.ID, nowhere.ChangeRequestID = quire.NewID(), "nosuchcr"
			wantCode(t, f.st.CreateComment(ctx(t), &nowhere), quire.EINVALID)
			equal(t, "counters after failures", f.openComments(sp, cr), [2]int{1, 1})
		}},
		{"comments/resolve, unresolve and edit keep the counters", func(t *testing.T, f *fixture) {
			o := f.org("A")
			ada, bob := f.user("Ada", "ada@x.io"), f.user("Bob", "bob@x.io")
			sp := f.space(o, "", "a")
			cr := f.changeRequest(sp, ada, quire.CROpen)
			c := f.comment(sp, nil, ada, "")
			inCR := f.comment(sp, cr, ada, "")
			f.comment(sp, cr, ada, "")
			equal(t, "start", f.openComments(sp, cr), [2]int{1, 2})
			for _, step := range []struct {
				resolved bool
				want     [2]int
			}{{true, [2]int{0, 1}}, {true, [2]int{0, 1}}, {false, [2]int{1, 2}}, {false, [2]int{1, 2}}, {true, [2]int{0, 1}}} {
				at := f.tick()
				r := ptr(step.resolved)
				got, err := f.st.UpdateComment(ctx(t), sp.ID, "", c.ID, quire.CommentUpdate{Resolved: r, By: bob.ID, At: at})
				must(t, err)
				_, err = f.st.UpdateComment(ctx(t), sp.ID, cr.ID, inCR.ID, quire.CommentUpdate{Resolved: r, By: bob.ID, At: at})
				must(t, err)
				if step.resolved {
					equal(t, "status", got.Status, quire.CommentResolved)
					equal(t, "resolved by", got.ResolvedBy, bob.ID)
					if got.ResolvedAt == nil {
						t.Fatal("no resolvedAt")
					}
				} else {
					equal(t, "status", got.Status, quire.CommentOpen)
					equal(t, "resolved by", got.ResolvedBy, "")
					equal(t, "resolved at", got.ResolvedAt, (*time.Time)(nil))
				}
				equal(t, fmt.Sprintf("counters after resolved=%v", step.resolved), f.openComments(sp, cr), step.want)
			}

			// Editing the body stamps the edit time; the same body does not.
			at := f.tick()
			body := commentBody("Changed")
			got, err := f.st.UpdateComment(ctx(t), sp.ID, "", c.ID, quire.CommentUpdate{Body: &body, By: ada.ID, At: at})
			must(t, err)
			equal(t, "body", got.Body, body)
			equal(t, "edited at", *got.EditedAt, at)
			got, err = f.st.UpdateComment(ctx(t), sp.ID, "", c.ID, quire.CommentUpdate{Body: &body, By: ada.ID, At: f.tick()})
			must(t, err)
			equal(t, "edited at after the same body", *got.EditedAt, at)
			equal(t, "still resolved", got.Status, quire.CommentResolved)

			_, err = f.st.UpdateComment(ctx(t), sp.ID, cr.ID, c.ID, quire.CommentUpdate{Body: &body})
			wantCode(t, err, quire.ENOTFOUND)
			_, err = f.st.UpdateComment(ctx(t), sp.ID, "", "nope", quire.CommentUpdate{})
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"comments/reactions", func(t *testing.T, f *fixture) {
			o := f.org("A")
			ada, bob, cy := f.user("Ada", "ada@x.io"), f.user("Bob", "bob@x.io"), f.user("Cy", "cy@x.io")
			sp := f.space(o, "", "a")
			c := f.comment(sp, nil, ada, "")
			r := f.reply(c, bob)
			react := func(u *quire.User, add, remove []string) *quire.Comment {
				t.Helper()
				got, err := f.st.UpdateComment(ctx(t), sp.ID, "", c.ID, quire.CommentUpdate{By: u.ID, At: f.tick(),
					Reactions: quire.ReactionChange{Add: add, Remove: remove}})
				must(t, err)
				return got
			}
			react(bob, []string{"👍"}, nil)
			react(ada, []string{"🎉", "👍"}, nil)
			got := react(bob, []string{"👍"}, nil)
			equal(t, "reactions", reactionsOf(got.Reactions), []string{"👍:" + bob.ID + "," + ada.ID, "🎉:" + ada.ID})
			first := got.Reactions[0].Users[0].At
			got = react(cy, []string{"🎉"}, []string{"👍"})
			equal(t, "removing one not made", reactionsOf(got.Reactions), []string{"👍:" + bob.ID + "," + ada.ID, "🎉:" + ada.ID + "," + cy.ID})
			equal(t, "first reaction time kept", got.Reactions[0].Users[0].At, first)
			got = react(bob, nil, []string{"👍"})
			equal(t, "removing one's own", reactionsOf(got.Reactions), []string{"🎉:" + ada.ID + "," + cy.ID, "👍:" + ada.ID})
			got = react(ada, []string{"❤️"}, []string{"👍", "❤️"})
			equal(t, "after removals", reactionsOf(got.Reactions), []string{"🎉:" + ada.ID + "," + cy.ID})
			got, err := f.st.Comment(ctx(t), sp.ID, "", c.ID)
			must(t, err)
			equal(t, "read back", reactionsOf(got.Reactions), []string{"🎉:" + ada.ID + "," + cy.ID})

			// Replies have their own.
			rr, err := f.st.UpdateCommentReply(ctx(t), c.ID, r.ID, quire.ReplyUpdate{By: cy.ID, At: f.tick(),
				Reactions: quire.ReactionChange{Add: []string{"👀", "🎉"}}})
			must(t, err)
			equal(t, "reply reactions, ties by emoji", reactionsOf(rr.Reactions), []string{"🎉:" + cy.ID, "👀:" + cy.ID})
			got, err = f.st.Comment(ctx(t), sp.ID, "", c.ID)
			must(t, err)
			equal(t, "comment reactions unchanged", reactionsOf(got.Reactions), []string{"🎉:" + ada.ID + "," + cy.ID})
			l, err := f.st.Comments(ctx(t), quire.CommentFilter{SpaceID: sp.ID}, quire.Page{})
			must(t, err)
			equal(t, "listed reactions", reactionsOf(l.Items[0].Reactions), []string{"🎉:" + ada.ID + "," + cy.ID})
			_, err = f.st.UpdateComment(ctx(t), sp.ID, "", c.ID, quire.CommentUpdate{By: "nosuchuser", At: f.tick(),
				Reactions: quire.ReactionChange{Add: []string{"👍"}}})
			wantCode(t, err, quire.EINVALID)
		}},
		{"comments/list paged, filtered and ordered", func(t *testing.T, f *fixture) {
			o := f.org("A")
			ada, bob, cy := f.user("Ada", "ada@x.io"), f.user("Bob", "bob@x.io"), f.user("Cy", "cy@x.io")
			sp, other := f.space(o, "", "a"), f.space(o, "", "b")
			cr := f.changeRequest(sp, ada, quire.CROpen)
			var all []*quire.Comment
			for i, page := range []string{"p1", "p2", "", "p1", "p2", "p1"} {
				by := []*quire.User{ada, bob, cy}[i%3]
				all = append(all, f.comment(sp, nil, by, page))
			}
			inCR := f.comment(sp, cr, ada, "p1")
			f.comment(other, nil, ada, "p1")
			for _, c := range []*quire.Comment{all[1], all[4]} {
				_, err := f.st.UpdateComment(ctx(t), sp.ID, "", c.ID, quire.CommentUpdate{Resolved: ptr(true), By: ada.ID, At: f.tick()})
				must(t, err)
			}
			pick := func(is ...int) []string {
				out := []string{}
				for _, i := range is {
					out = append(out, all[i].ID)
				}
				return out
			}
			for _, c := range []struct {
				name string
				f    quire.CommentFilter
				want []string
			}{
				{"space, newest first", quire.CommentFilter{SpaceID: sp.ID}, pick(5, 4, 3, 2, 1, 0)},
				{"space, oldest first", quire.CommentFilter{SpaceID: sp.ID, Order: quire.OrderAsc}, pick(0, 1, 2, 3, 4, 5)},
				{"open", quire.CommentFilter{SpaceID: sp.ID, Status: quire.CommentOpen}, pick(5, 3, 2, 0)},
				{"resolved", quire.CommentFilter{SpaceID: sp.ID, Status: quire.CommentResolved, Order: quire.OrderAsc}, pick(1, 4)},
				{"page", quire.CommentFilter{SpaceID: sp.ID, Page: "p1"}, pick(5, 3, 0)},
				{"authors", quire.CommentFilter{SpaceID: sp.ID, Authors: []string{bob.ID, cy.ID}}, pick(5, 4, 2, 1)},
				{"author, page and status", quire.CommentFilter{SpaceID: sp.ID, Authors: []string{cy.ID}, Page: "p1", Status: quire.CommentOpen}, pick(5)},
				{"unknown author", quire.CommentFilter{SpaceID: sp.ID, Authors: []string{"nobody"}}, []string{}},
				{"change request", quire.CommentFilter{SpaceID: sp.ID, ChangeRequestID: cr.ID}, []string{inCR.ID}},
				{"change request, other page", quire.CommentFilter{SpaceID: sp.ID, ChangeRequestID: cr.ID, Page: "p2"}, []string{}},
			} {
				for _, size := range []int{1, 2, 4, 50} {
					got, _ := collect(t, size, func(p quire.Page) (*quire.List[*quire.Comment], error) {
						return f.st.Comments(ctx(t), c.f, p)
					})
					equal(t, fmt.Sprintf("%s (pages of %d)", c.name, size), ids(got, commentID), c.want)
				}
			}
			l, err := f.st.Comments(ctx(t), quire.CommentFilter{SpaceID: sp.ID}, quire.Page{Limit: 2})
			must(t, err)
			_, err = f.st.Comments(ctx(t), quire.CommentFilter{SpaceID: sp.ID, Order: quire.OrderAsc}, quire.Page{Cursor: l.Next})
			wantCode(t, err, quire.EINVALID)
			_, err = f.st.Comments(ctx(t), quire.CommentFilter{SpaceID: sp.ID}, quire.Page{Cursor: "e30"})
			wantCode(t, err, quire.EINVALID)
		}},
		{"comments/same posting time ordered by id", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			sp := f.space(o, "", "a")
			at := f.tick()
			var want []string
			for range 5 {
				c := &quire.Comment{ID: quire.NewID(), SpaceID: sp.ID, Revision: sp.Revision, Body: commentBody("x"),
					PostedBy: u.ID, PostedAt: at, Status: quire.CommentOpen}
				must(t, f.st.CreateComment(ctx(t), c))
				want = append(want, c.ID)
			}
			slices.Sort(want)
			got, _ := collect(t, 2, func(p quire.Page) (*quire.List[*quire.Comment], error) {
				return f.st.Comments(ctx(t), quire.CommentFilter{SpaceID: sp.ID, Order: quire.OrderAsc}, p)
			})
			equal(t, "ascending", ids(got, commentID), want)
			slices.Reverse(want)
			got, _ = collect(t, 2, func(p quire.Page) (*quire.List[*quire.Comment], error) {
				return f.st.Comments(ctx(t), quire.CommentFilter{SpaceID: sp.ID}, p)
			})
			equal(t, "descending", ids(got, commentID), want)
		}},
	}, commentReplyTests()...)
}
