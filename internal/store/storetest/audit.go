package storetest

import (
	"testing"
	"time"

	"quire/internal/quire"
)

func auditTests() []test {
	return []test{
		{"audit/add and read back", func(t *testing.T, f *fixture) {
			o := f.org("Acme")
			e := &quire.AuditEvent{OrgID: o.ID, ActorID: "ada", Action: quire.AuditMemberRoleChanged,
				TargetKind: quire.AuditTargetUser, TargetID: "bob",
				Details: map[string]string{"from": "read", "to": "admin"}, CreatedAt: f.tick()}
			must(t, f.st.AddAuditEvent(ctx(t), e))
			if e.ID == 0 {
				t.Fatal("id not set")
			}
			sys := &quire.AuditEvent{OrgID: o.ID, Action: quire.AuditMemberAdded, TargetKind: quire.AuditTargetUser, TargetID: "cy"}
			must(t, f.st.AddAuditEvent(ctx(t), sys))
			equal(t, "clock stamps an event without a time", sys.CreatedAt, f.clock.Now())
			if sys.ID <= e.ID {
				t.Fatalf("ids do not ascend: %d then %d", e.ID, sys.ID)
			}
			l, err := f.st.AuditEvents(ctx(t), o.ID, quire.AuditFilter{}, quire.Page{})
			must(t, err)
			equal(t, "count", l.Count, quire.Uncounted)
			equal(t, "newest first", len(l.Items), 2)
			equal(t, "system event", *l.Items[0], quire.AuditEvent{ID: sys.ID, OrgID: o.ID, Action: quire.AuditMemberAdded,
				TargetKind: quire.AuditTargetUser, TargetID: "cy", Details: map[string]string{}, CreatedAt: sys.CreatedAt})
			equal(t, "read back", *l.Items[1], *e)

			other := f.org("Other")
			l, err = f.st.AuditEvents(ctx(t), other.ID, quire.AuditFilter{}, quire.Page{})
			must(t, err)
			equal(t, "another organization's events stay apart", len(l.Items), 0)
		}},
		{"audit/filters and pages newest first", func(t *testing.T, f *fixture) {
			o := f.org("Acme")
			start := f.tick()
			var all []*quire.AuditEvent
			for i := range 7 {
				actor, action := "ada", quire.AuditMemberAdded
				if i%2 == 1 {
					actor, action = "bob", quire.AuditTokenCreated
				}
				e := &quire.AuditEvent{OrgID: o.ID, ActorID: actor, Action: action, TargetID: "t",
					CreatedAt: start.Add(time.Duration(i) * time.Minute)}
				must(t, f.st.AddAuditEvent(ctx(t), e))
				all = append(all, e)
			}
			evID := func(e *quire.AuditEvent) int64 { return e.ID }
			list := func(flt quire.AuditFilter, size int) []int64 {
				t.Helper()
				items, _ := collect(t, size, func(p quire.Page) (*quire.List[*quire.AuditEvent], error) {
					return f.st.AuditEvents(ctx(t), o.ID, flt, p)
				})
				out := []int64{}
				for _, e := range items {
					out = append(out, evID(e))
				}
				return out
			}
			want := func(idx ...int) []int64 {
				out := []int64{}
				for _, i := range idx {
					out = append(out, all[i].ID)
				}
				return out
			}
			equal(t, "all, pages of 3", list(quire.AuditFilter{}, 3), want(6, 5, 4, 3, 2, 1, 0))
			equal(t, "by action", list(quire.AuditFilter{Action: quire.AuditTokenCreated}, 2), want(5, 3, 1))
			equal(t, "by actor", list(quire.AuditFilter{Actor: "ada"}, 2), want(6, 4, 2, 0))
			equal(t, "by actor and action", list(quire.AuditFilter{Actor: "ada", Action: quire.AuditTokenCreated}, 2), want())
			equal(t, "since is inclusive, until exclusive",
				list(quire.AuditFilter{Since: start.Add(2 * time.Minute), Until: start.Add(5 * time.Minute)}, 2), want(4, 3, 2))
			equal(t, "since alone", list(quire.AuditFilter{Since: start.Add(5 * time.Minute)}, 10), want(6, 5))
			equal(t, "until alone", list(quire.AuditFilter{Until: start.Add(time.Minute)}, 10), want(0))

			_, err := f.st.AuditEvents(ctx(t), o.ID, quire.AuditFilter{}, quire.Page{Cursor: "nonsense"})
			wantCode(t, err, quire.EINVALID)
			ml, err := f.st.Members(ctx(t), o.ID, quire.MemberFilter{}, quire.Page{Limit: 1})
			must(t, err)
			if ml.Next != "" {
				_, err = f.st.AuditEvents(ctx(t), o.ID, quire.AuditFilter{}, quire.Page{Cursor: ml.Next})
				wantCode(t, err, quire.EINVALID)
			}
		}},
		{"audit/recorded in a transaction, undone with it", func(t *testing.T, f *fixture) {
			o := f.org("Acme")
			boom := quire.Invalid("x", "boom")
			err := f.st.WithTx(ctx(t), func(st quire.Store) error {
				must(t, st.AddAuditEvent(ctx(t), &quire.AuditEvent{OrgID: o.ID, Action: quire.AuditMemberRemoved}))
				return boom
			})
			if err == nil {
				t.Fatal("transaction did not fail")
			}
			must(t, f.st.WithTx(ctx(t), func(st quire.Store) error {
				return st.AddAuditEvent(ctx(t), &quire.AuditEvent{OrgID: o.ID, Action: quire.AuditMemberAdded})
			}))
			l, err := f.st.AuditEvents(ctx(t), o.ID, quire.AuditFilter{}, quire.Page{})
			must(t, err)
			equal(t, "only the committed event", len(l.Items), 1)
			equal(t, "its action", l.Items[0].Action, quire.AuditMemberAdded)
		}},
	}
}
