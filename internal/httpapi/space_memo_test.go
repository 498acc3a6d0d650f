package httpapi

import (
	"reflect"
	"testing"
	"time"

	"quire/internal/quire"
)

// memoSpace returns a space with every field set.
func memoSpace() *quire.Space {
	at := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	gone := at.Add(time.Hour)
	return &quire.Space{ID: "s", OrgID: "o", Title: "T", Emoji: "e", IconURL: "https://i", Visibility: quire.VisibilityPublic,
		EditMode: quire.EditModeLive, Parent: "c", Language: "en", DefaultLevel: quire.DefaultInherit,
		MergeRules: quire.MergeRules{Type: quire.MergeRulesRules, Rules: []quire.MergeRule{
			{Rule: quire.RuleSpecificReviewers, Users: []string{"u"}, Expression: "x"}}},
		Revision: "r", Position: "p", CreatedAt: at, UpdatedAt: at, DeletedAt: &gone,
		Comments: 1, ChangeRequests: 2, ChangeRequestsOpen: 3, ChangeRequestsDraft: 4,
		OrgMergeRules: &quire.MergeRules{Type: quire.MergeRulesNone}}
}

// TestSameSpaceSeesEveryField changes each field of a space in turn, and
// each field of its merge rules, and checks that sameSpace tells the
// changed space apart: a field it skipped would let the memo answer a
// space as it was before a write.
func TestSameSpaceSeesEveryField(t *testing.T) {
	base := memoSpace()
	if !sameSpace(base, memoSpace()) {
		t.Fatal("two equal spaces differ")
	}
	change := func(v reflect.Value) bool {
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "+")
		case reflect.Int:
			v.SetInt(v.Int() + 1)
		case reflect.Pointer:
			v.Set(reflect.Zero(v.Type()))
		case reflect.Struct:
			if tm, ok := v.Addr().Interface().(*time.Time); ok {
				*tm = tm.Add(time.Millisecond)
				return true
			}
			return false
		case reflect.Slice:
			v.Set(reflect.Zero(v.Type()))
		default:
			return false
		}
		return true
	}
	st := reflect.TypeOf(quire.Space{})
	for i := range st.NumField() {
		sp := memoSpace()
		f := reflect.ValueOf(sp).Elem().Field(i)
		if st.Field(i).Name == "MergeRules" {
			mt := reflect.TypeOf(quire.MergeRules{})
			for j := range mt.NumField() {
				sp := memoSpace()
				if !change(reflect.ValueOf(&sp.MergeRules).Elem().Field(j)) {
					t.Fatalf("the test cannot change MergeRules.%s", mt.Field(j).Name)
				}
				if sameSpace(base, sp) {
					t.Errorf("a change of MergeRules.%s goes unseen", mt.Field(j).Name)
				}
			}
			rt := reflect.TypeOf(quire.MergeRule{})
			for j := range rt.NumField() {
				sp := memoSpace()
				if !change(reflect.ValueOf(&sp.MergeRules.Rules[0]).Elem().Field(j)) {
					t.Fatalf("the test cannot change MergeRule.%s", rt.Field(j).Name)
				}
				if sameSpace(base, sp) {
					t.Errorf("a change of MergeRule.%s goes unseen", rt.Field(j).Name)
				}
			}
			continue
		}
		if !change(f) {
			t.Fatalf("the test cannot change Space.%s (%s)", st.Field(i).Name, f.Kind())
		}
		if sameSpace(base, sp) {
			t.Errorf("a change of Space.%s goes unseen", st.Field(i).Name)
		}
	}
}

// TestSpaceMemoAnswersOnlyEqualSpaces checks that the memo gives back the
// JSON stored for an equal space at the same level, and nothing for a
// changed space or another level, and that changing the space it was
// stored from does not reach the entry.
func TestSpaceMemoAnswersOnlyEqualSpaces(t *testing.T) {
	m := newSpaceMemo()
	sp := memoSpace()
	m.store(sp, quire.LevelRead, []byte(`{"a":1}`))
	if got := string(m.lookup(memoSpace(), quire.LevelRead)); got != `{"a":1}` {
		t.Fatalf("lookup of an equal space: %q", got)
	}
	if got := m.lookup(memoSpace(), quire.LevelAdmin); got != nil {
		t.Fatalf("lookup at another level: %q", got)
	}
	sp.MergeRules.Rules[0].Users[0] = "v"
	if got := m.lookup(sp, quire.LevelRead); got != nil {
		t.Fatalf("lookup of a changed space: %q", got)
	}
	if got := m.lookup(memoSpace(), quire.LevelRead); got == nil {
		t.Fatal("changing the stored space reached the entry")
	}
}

// TestSpaceMemoStaysBounded fills the memo past two generations and
// checks that it holds at most two and still finds recent entries.
func TestSpaceMemoStaysBounded(t *testing.T) {
	m := newSpaceMemo()
	sp := memoSpace()
	for i := range 3*spaceMemoGeneration + 5 {
		sp.ID = "s" + string(rune('a'+i%26)) + time.Duration(i).String()
		m.store(sp, quire.LevelRead, []byte("{}"))
	}
	if n := len(m.cur) + len(m.prev); n > 2*spaceMemoGeneration {
		t.Fatalf("the memo holds %d entries, want at most %d", n, 2*spaceMemoGeneration)
	}
	if m.lookup(sp, quire.LevelRead) == nil {
		t.Fatal("the last entry stored is gone")
	}
}
