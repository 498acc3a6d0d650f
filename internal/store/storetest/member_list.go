package storetest

import (
	"cmp"
	"slices"
	"testing"
	"time"

	"quire/internal/quire"
)

// memberRow describes one member of the listing tests: name, email, role,
// minutes after base they joined, and minutes they were last seen (-1 for
// never). Equal times check the id tiebreak.
type memberRow struct {
	name, email string
	role        quire.Role
	joined      int
	seen        int
}

func memberRows() []memberRow {
	return []memberRow{
		{"Ada Lovelace", "ada@example.com", quire.RoleAdmin, 1, 50},
		{"Bob", "bob@ada.dev", quire.RoleRead, 2, -1},
		{"Carol 100%", "carol@example.com", "", 3, 40},
		{"Dan_Smith", "dan@example.com", quire.RoleAdmin, 3, 40},
		{"Eve", "eve@example.com", "", 3, -1},
		{"Fay", "fay@example.com", quire.RoleEdit, 4, 40},
		{"Gil", "gil@example.com", quire.RoleRead, 5, 60},
	}
}

// listFixture creates the members of memberRows in a new organization.
func listFixture(f *fixture) (*quire.Organization, []*quire.Member) {
	o := f.org("Listed")
	var ms []*quire.Member
	for _, r := range memberRows() {
		u := f.user(r.name, r.email)
		m := &quire.Member{OrgID: o.ID, User: *u, Role: r.role, JoinedAt: base().Add(time.Duration(r.joined) * time.Minute)}
		if r.seen >= 0 {
			m.LastSeenAt = seenAt(r.seen)
		}
		must(f.t, f.st.AddMember(ctx(f.t), m))
		ms = append(ms, m)
	}
	return o, ms
}

// sortMembers returns the user ids of ms in the order of key then user id.
func sortMembers(ms []*quire.Member, key func(*quire.Member) time.Time, desc bool) []string {
	s := slices.Clone(ms)
	slices.SortFunc(s, func(a, b *quire.Member) int {
		c := key(a).Compare(key(b))
		if c == 0 {
			c = cmp.Compare(a.User.ID, b.User.ID)
		}
		if desc {
			return -c
		}
		return c
	})
	return ids(s, memberID)
}

func memberID(m *quire.Member) string { return m.User.ID }

func memberListTests() []test {
	joined := func(m *quire.Member) time.Time { return m.JoinedAt }
	seen := func(m *quire.Member) time.Time { return *m.LastSeenAt }
	return []test{
		{"members/list sorted and paged", func(t *testing.T, f *fixture) {
			o, ms := listFixture(f)
			seenOnly := slices.DeleteFunc(slices.Clone(ms), func(m *quire.Member) bool { return m.LastSeenAt == nil })
			for _, c := range []struct {
				name   string
				filter quire.MemberFilter
				want   []string
			}{
				{"default: joined, newest first", quire.MemberFilter{}, sortMembers(ms, joined, true)},
				{"joined ascending", quire.MemberFilter{Sort: quire.SortJoinedAt, Order: quire.OrderAsc}, sortMembers(ms, joined, false)},
				{"last seen", quire.MemberFilter{Sort: quire.SortLastSeenAt}, sortMembers(seenOnly, seen, true)},
				{"last seen ascending", quire.MemberFilter{Sort: quire.SortLastSeenAt, Order: quire.OrderAsc}, sortMembers(seenOnly, seen, false)},
			} {
				for _, size := range []int{1, 2, 3, 100} {
					got, _ := collect(t, size, func(p quire.Page) (*quire.List[*quire.Member], error) {
						return f.st.Members(ctx(t), o.ID, c.filter, p)
					})
					equal(t, c.name, ids(got, memberID), c.want)
				}
			}
		}},
		{"members/list filtered", func(t *testing.T, f *fixture) {
			o, ms := listFixture(f)
			name := func(m *quire.Member) string { return m.User.DisplayName }
			for _, c := range []struct {
				name   string
				filter quire.MemberFilter
				want   []string
			}{
				{"admins", quire.MemberFilter{Role: ptr(quire.RoleAdmin)}, []string{"Dan_Smith", "Ada Lovelace"}},
				{"guests", quire.MemberFilter{Role: ptr(quire.Role("")), Order: quire.OrderAsc}, []string{"Carol 100%", "Eve"}},
				{"name or email, any case", quire.MemberFilter{Search: "ADA", Order: quire.OrderAsc}, []string{"Ada Lovelace", "Bob"}},
				{"percent is literal", quire.MemberFilter{Search: "0%"}, []string{"Carol 100%"}},
				{"underscore is literal", quire.MemberFilter{Search: "n_s"}, []string{"Dan_Smith"}},
				{"underscore is no wildcard", quire.MemberFilter{Search: "a_e"}, []string{}},
				{"lone percent", quire.MemberFilter{Search: "%"}, []string{"Carol 100%"}},
				{"search and role", quire.MemberFilter{Search: "example", Role: ptr(quire.RoleRead)}, []string{"Gil"}},
				{"seen admins", quire.MemberFilter{Sort: quire.SortLastSeenAt, Role: ptr(quire.RoleAdmin)}, []string{"Ada Lovelace", "Dan_Smith"}},
				{"nothing", quire.MemberFilter{Search: "zzz"}, []string{}},
			} {
				got, count := collect(t, 1, func(p quire.Page) (*quire.List[*quire.Member], error) {
					return f.st.Members(ctx(t), o.ID, c.filter, p)
				})
				// Dan and Carol joined at the same time: order by id.
				want := c.want
				if c.name == "guests" || c.name == "admins" {
					want = byNames(ms, want, c.filter.Order == quire.OrderAsc)
				}
				equal(t, c.name, ids(got, name), want)
				equal(t, c.name+" count", count, len(want))
			}
		}},
		{"members/list rejects bad input", func(t *testing.T, f *fixture) {
			o := f.org("A")
			_, err := f.st.Members(ctx(t), o.ID, quire.MemberFilter{Sort: "name"}, quire.Page{})
			wantCode(t, err, quire.EINVALID)
			_, err = f.st.Members(ctx(t), o.ID, quire.MemberFilter{Order: "up"}, quire.Page{})
			wantCode(t, err, quire.EINVALID)
			_, err = f.st.Members(ctx(t), o.ID, quire.MemberFilter{}, quire.Page{Cursor: "eyJ4Ijox"})
			wantCode(t, err, quire.EINVALID)
			f.member(o, f.user("A", "a@x.io"), "")
			f.member(o, f.user("B", "b@x.io"), "")
			l, err := f.st.Members(ctx(t), o.ID, quire.MemberFilter{}, quire.Page{Limit: 1})
			must(t, err)
			_, err = f.st.Members(ctx(t), o.ID, quire.MemberFilter{Sort: quire.SortLastSeenAt}, quire.Page{Cursor: l.Next})
			wantCode(t, err, quire.EINVALID)
		}},
	}
}

// byNames orders the named members by join time then id, the way the
// store breaks ties.
func byNames(ms []*quire.Member, names []string, asc bool) []string {
	var sel []*quire.Member
	for _, m := range ms {
		if slices.Contains(names, m.User.DisplayName) {
			sel = append(sel, m)
		}
	}
	sorted := sortMembers(sel, func(m *quire.Member) time.Time { return m.JoinedAt }, !asc)
	out := []string{}
	for _, id := range sorted {
		for _, m := range sel {
			if m.User.ID == id {
				out = append(out, m.User.DisplayName)
			}
		}
	}
	return out
}
