package storetest

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"quire/internal/quire"
)

func changeRequestID(c *quire.ChangeRequest) string { return c.ID }

// changeRequest creates a change request of a space by a user, in a status.
func (f *fixture) changeRequest(sp *quire.Space, u *quire.User, status quire.ChangeRequestStatus) *quire.ChangeRequest {
	f.t.Helper()
	now := f.tick()
	c := &quire.ChangeRequest{ID: quire.NewID(), SpaceID: sp.ID, Status: status, Subject: "Change " + string(status),
		CreatedBy: u.ID, CreatedAt: now, UpdatedAt: now, Revision: sp.Revision, RevisionInitial: sp.Revision}
	must(f.t, f.st.CreateChangeRequest(ctx(f.t), c))
	return c
}

// counters are a space's change request counters.
type counters struct{ all, open, draft int }

// spaceCounters reads a space's change request counters.
func (f *fixture) spaceCounters(id string) counters {
	f.t.Helper()
	sp, err := f.st.Space(ctx(f.t), id)
	must(f.t, err)
	return counters{sp.ChangeRequests, sp.ChangeRequestsOpen, sp.ChangeRequestsDraft}
}

func changeRequestTests() []test {
	return []test{
		{"change requests/create and read", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			sp, other := f.space(o, "", "a"), f.space(o, "", "b")
			now := f.tick()
			c := &quire.ChangeRequest{ID: quire.NewID(), SpaceID: sp.ID, Status: quire.CRDraft, Subject: "Fix typos",
				Description: json.RawMessage(`{"object":"document","data":{},"nodes":[]}`), CreatedBy: u.ID,
				CreatedAt: now, UpdatedAt: now, Revision: sp.Revision, RevisionInitial: sp.Revision}
			must(t, f.st.CreateChangeRequest(ctx(t), c))
			equal(t, "number", c.Number, 1)
			for _, key := range []string{c.ID, "1", "01"} {
				got, err := f.st.ChangeRequest(ctx(t), sp.ID, key)
				must(t, err)
				equal(t, "change request by "+key, *got, *c)
			}
			for _, key := range []string{c.ID, "1"} {
				_, err := f.st.ChangeRequest(ctx(t), other.ID, key)
				wantCode(t, err, quire.ENOTFOUND)
			}
			for _, key := range []string{"2", "-1", "1.0", "", "99999999999999999999"} {
				_, err := f.st.ChangeRequest(ctx(t), sp.ID, key)
				wantCode(t, err, quire.ENOTFOUND)
			}
			equal(t, "counters", f.spaceCounters(sp.ID), counters{1, 0, 1})

			// Numbers count per space.
			equal(t, "second", f.changeRequest(sp, u, quire.CROpen).Number, 2)
			equal(t, "first of another space", f.changeRequest(other, u, quire.CROpen).Number, 1)
			equal(t, "third", f.changeRequest(sp, u, quire.CRArchived).Number, 3)
			equal(t, "counters", f.spaceCounters(sp.ID), counters{3, 1, 1})
			equal(t, "other counters", f.spaceCounters(other.ID), counters{1, 1, 0})

			// A failed create takes no number and counts nothing.
			dup := *c
			wantCode(t, f.st.CreateChangeRequest(ctx(t), &dup), quire.ECONFLICT)
			stranger := *c
			stranger.ID, stranger.CreatedBy = quire.NewID(), "nosuchuser"
			wantCode(t, f.st.CreateChangeRequest(ctx(t), &stranger), quire.EINVALID)
			nowhere := *c
			nowhere.ID, nowhere.SpaceID = quire.NewID(), "nosuchspace"
			wantCode(t, f.st.CreateChangeRequest(ctx(t), &nowhere), quire.ENOTFOUND)
			equal(t, "counters after failures", f.spaceCounters(sp.ID), counters{3, 1, 1})
			equal(t, "next number", f.changeRequest(sp, u, quire.CRDraft).Number, 4)
		}},
		{"change requests/update", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			sp, other := f.space(o, "", "a"), f.space(o, "", "b")
			c := f.changeRequest(sp, u, quire.CRDraft)
			got, err := f.st.UpdateChangeRequest(ctx(t), sp.ID, c.ID, quire.ChangeRequestUpdate{})
			must(t, err)
			equal(t, "empty update changes nothing", *got, *c)

			before := f.clock.Advance(time.Millisecond)
			desc := json.RawMessage(`{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[]}]}`)
			got, err = f.st.UpdateChangeRequest(ctx(t), sp.ID, c.ID, quire.ChangeRequestUpdate{Subject: ptr("New subject"),
				Description: &desc, Revision: ptr("r2"), RevisionMergedAncestor: ptr("m1"), RevisionMerged: ptr("m2")})
			must(t, err)
			if !got.UpdatedAt.Equal(before) {
				t.Fatalf("updatedAt %v, want the store's clock: %v", got.UpdatedAt, before)
			}
			want := *c
			want.Subject, want.Description, want.Revision = "New subject", desc, "r2"
			want.RevisionMergedAncestor, want.RevisionMerged, want.UpdatedAt = "m1", "m2", got.UpdatedAt
			equal(t, "updated", *got, want)
			reread, err := f.st.ChangeRequest(ctx(t), sp.ID, c.ID)
			must(t, err)
			equal(t, "read back", *reread, want)

			// An empty description clears it.
			none := json.RawMessage(nil)
			got, err = f.st.UpdateChangeRequest(ctx(t), sp.ID, c.ID, quire.ChangeRequestUpdate{Description: &none})
			must(t, err)
			equal(t, "cleared description", got.Description, json.RawMessage(nil))

			// The content moves only from the revision the writer read.
			_, err = f.st.UpdateChangeRequest(ctx(t), sp.ID, c.ID, quire.ChangeRequestUpdate{Revision: ptr("r3"), IfRevision: ptr("r1")})
			wantCode(t, err, quire.ECONFLICT)
			got, err = f.st.UpdateChangeRequest(ctx(t), sp.ID, c.ID, quire.ChangeRequestUpdate{Revision: ptr("r3"), IfRevision: ptr("r2")})
			must(t, err)
			equal(t, "revision", got.Revision, "r3")

			_, err = f.st.UpdateChangeRequest(ctx(t), other.ID, c.ID, quire.ChangeRequestUpdate{Subject: ptr("x")})
			wantCode(t, err, quire.ENOTFOUND)
			_, err = f.st.UpdateChangeRequest(ctx(t), sp.ID, "nope", quire.ChangeRequestUpdate{})
			wantCode(t, err, quire.ENOTFOUND)
		}},
		{"change requests/status changes keep the space's counters", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			sp := f.space(o, "", "a")
			c := f.changeRequest(sp, u, quire.CRDraft)
			f.changeRequest(sp, u, quire.CROpen)
			equal(t, "start", f.spaceCounters(sp.ID), counters{2, 1, 1})
			for _, step := range []struct {
				status quire.ChangeRequestStatus
				want   counters
			}{
				{quire.CROpen, counters{2, 2, 0}},
				{quire.CROpen, counters{2, 2, 0}},
				{quire.CRArchived, counters{2, 1, 0}},
				{quire.CRDraft, counters{2, 1, 1}},
				{quire.CRArchived, counters{2, 1, 0}},
				{quire.CROpen, counters{2, 2, 0}},
				{quire.CRMerged, counters{2, 1, 0}},
			} {
				got, err := f.st.UpdateChangeRequest(ctx(t), sp.ID, c.ID, quire.ChangeRequestUpdate{Status: ptr(step.status)})
				must(t, err)
				equal(t, "status", got.Status, step.status)
				equal(t, "counters after "+string(step.status), f.spaceCounters(sp.ID), step.want)
			}
		}},
		{"change requests/list paged and filtered", func(t *testing.T, f *fixture) {
			o, o2 := f.org("A"), f.org("B")
			ada, bob := f.user("Ada", "ada@x.io"), f.user("Bob", "bob@x.io")
			sp, sp2, gone := f.space(o, "", "a"), f.space(o, "", "b"), f.space(o, "", "c")
			elsewhere := f.space(o2, "", "a")
			var inSp, inSp2 []*quire.ChangeRequest
			for i, status := range []quire.ChangeRequestStatus{quire.CROpen, quire.CRDraft, quire.CROpen, quire.CRArchived, quire.CROpen} {
				by := ada
				if i%2 == 1 {
					by = bob
				}
				inSp = append(inSp, f.changeRequest(sp, by, status))
				inSp2 = append(inSp2, f.changeRequest(sp2, by, status))
			}
			f.changeRequest(gone, ada, quire.CROpen)
			f.changeRequest(elsewhere, ada, quire.CROpen)
			_, err := f.st.DeleteSpace(ctx(t), gone.ID, f.tick())
			must(t, err)
			must(t, f.st.AddContributor(ctx(t), inSp[0].ID, bob.ID))
			must(t, f.st.AddContributor(ctx(t), inSp[0].ID, bob.ID))
			must(t, f.st.AddContributor(ctx(t), inSp2[3].ID, bob.ID))
			must(t, f.st.AddContributor(ctx(t), inSp2[3].ID, ada.ID))
			wantCode(t, f.st.AddContributor(ctx(t), "nosuchcr", bob.ID), quire.EINVALID)
			// Bob is asked to review two; he reviews one of them, which
			// ends his request there.
			for _, c := range []*quire.ChangeRequest{inSp[2], inSp2[4]} {
				must(t, f.st.RequestReviewers(ctx(t), []*quire.RequestedReviewer{{ChangeRequestID: c.ID, UserID: bob.ID,
					Revision: c.Revision, RequestedBy: ada.ID, CreatedAt: f.tick()}}))
			}
			must(t, f.st.RequestReviewers(ctx(t), []*quire.RequestedReviewer{{ChangeRequestID: inSp[4].ID, UserID: bob.ID,
				Revision: inSp[4].Revision, RequestedBy: ada.ID, CreatedAt: f.tick()}}))
			at := f.tick()
			must(t, f.st.CreateReview(ctx(t), &quire.Review{ID: quire.NewID(), SpaceID: sp.ID, ChangeRequestID: inSp[4].ID,
				Revision: inSp[4].Revision, Reviewer: bob.ID, Status: quire.ReviewApproved, CreatedAt: at, UpdatedAt: at}))

			// Newest first.
			newest := func(l ...*quire.ChangeRequest) []string {
				out := ids(l, changeRequestID)
				slices.Reverse(out)
				return out
			}
			both := []*quire.ChangeRequest{}
			for i := range inSp {
				both = append(both, inSp[i], inSp2[i])
			}
			// A list of spaces past any engine's limit on placeholders.
			many := []string{sp2.ID, elsewhere.ID}
			for len(many) < 70_000 {
				many = append(many, quire.NewID())
			}
			for _, c := range []struct {
				name string
				f    quire.ChangeRequestFilter
				want []string
			}{
				{"space", quire.ChangeRequestFilter{SpaceID: sp.ID}, newest(inSp...)},
				{"space, open", quire.ChangeRequestFilter{SpaceID: sp.ID, Status: quire.CROpen}, newest(inSp[0], inSp[2], inSp[4])},
				{"space, merged", quire.ChangeRequestFilter{SpaceID: sp.ID, Status: quire.CRMerged}, []string{}},
				{"space, creator", quire.ChangeRequestFilter{SpaceID: sp.ID, Creator: bob.ID}, newest(inSp[1], inSp[3])},
				{"space, contributor", quire.ChangeRequestFilter{SpaceID: sp.ID, Contributor: bob.ID}, newest(inSp[0])},
				{"organization, live spaces only", quire.ChangeRequestFilter{OrgID: o.ID}, newest(both...)},
				{"organization, draft", quire.ChangeRequestFilter{OrgID: o.ID, Status: quire.CRDraft}, newest(inSp[1], inSp2[1])},
				{"organization, contributor", quire.ChangeRequestFilter{OrgID: o.ID, Contributor: bob.ID}, newest(inSp[0], inSp2[3])},
				{"organization, creator and contributor", quire.ChangeRequestFilter{OrgID: o.ID, Creator: bob.ID, Contributor: bob.ID}, newest(inSp2[3])},
				{"organization, creator and status", quire.ChangeRequestFilter{OrgID: o.ID, Creator: ada.ID, Status: quire.CROpen},
					newest(inSp[0], inSp2[0], inSp[2], inSp2[2], inSp[4], inSp2[4])},
				{"space, reviewer", quire.ChangeRequestFilter{SpaceID: sp.ID, Reviewer: bob.ID}, newest(inSp[2])},
				{"organization, reviewer", quire.ChangeRequestFilter{OrgID: o.ID, Reviewer: bob.ID}, newest(inSp[2], inSp2[4])},
				{"organization, reviewer and status", quire.ChangeRequestFilter{OrgID: o.ID, Reviewer: bob.ID, Status: quire.CROpen}, newest(inSp[2], inSp2[4])},
				{"organization, someone asked nothing", quire.ChangeRequestFilter{OrgID: o.ID, Reviewer: ada.ID}, []string{}},
				{"organization, some spaces", quire.ChangeRequestFilter{OrgID: o.ID, SpaceIDs: many}, newest(inSp2...)},
				{"organization, some spaces and status", quire.ChangeRequestFilter{OrgID: o.ID, SpaceIDs: many, Status: quire.CROpen},
					newest(inSp2[0], inSp2[2], inSp2[4])},
				{"organization, no spaces", quire.ChangeRequestFilter{OrgID: o.ID, SpaceIDs: []string{}}, []string{}},
			} {
				for _, size := range []int{1, 2, 3, 50} {
					got, _ := collect(t, size, func(p quire.Page) (*quire.List[*quire.ChangeRequest], error) {
						return f.st.ChangeRequests(ctx(t), c.f, p)
					})
					equal(t, fmt.Sprintf("%s (pages of %d)", c.name, size), ids(got, changeRequestID), c.want)
				}
			}
			_, err = f.st.ChangeRequests(ctx(t), quire.ChangeRequestFilter{SpaceID: sp.ID}, quire.Page{Cursor: "e30"})
			wantCode(t, err, quire.EINVALID)
		}},
		{"change requests/same creation time ordered by id", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			sp := f.space(o, "", "a")
			at := f.tick()
			var want []string
			for range 5 {
				c := &quire.ChangeRequest{ID: quire.NewID(), SpaceID: sp.ID, Status: quire.CROpen, CreatedBy: u.ID,
					CreatedAt: at, UpdatedAt: at, Revision: sp.Revision, RevisionInitial: sp.Revision}
				must(t, f.st.CreateChangeRequest(ctx(t), c))
				want = append(want, c.ID)
			}
			slices.Sort(want)
			slices.Reverse(want)
			got, _ := collect(t, 2, func(p quire.Page) (*quire.List[*quire.ChangeRequest], error) {
				return f.st.ChangeRequests(ctx(t), quire.ChangeRequestFilter{SpaceID: sp.ID}, p)
			})
			equal(t, "order", ids(got, changeRequestID), want)
		}},
		{"change requests/purged with their space", func(t *testing.T, f *fixture) {
			o := f.org("A")
			u := f.user("Ada", "ada@x.io")
			sp := f.space(o, "", "a")
			c := f.changeRequest(sp, u, quire.CROpen)
			must(t, f.st.AddContributor(ctx(t), c.ID, u.ID))
			_, err := f.st.DeleteSpace(ctx(t), sp.ID, f.tick())
			must(t, err)
			n, err := f.st.PurgeSpaces(ctx(t), time.Now())
			must(t, err)
			equal(t, "purged", n, 1)
			_, err = f.st.ChangeRequest(ctx(t), sp.ID, c.ID)
			wantCode(t, err, quire.ENOTFOUND)
			l, err := f.st.ChangeRequests(ctx(t), quire.ChangeRequestFilter{Contributor: u.ID}, quire.Page{})
			must(t, err)
			equal(t, "left", l.Count, 0)
		}},
	}
}
