package dump

import (
	"reflect"
	"testing"
)

func TestLoadOrder(t *testing.T) {
	tables := []Table{
		{Name: "comments", Refs: []string{"spaces", "users"}},
		{Name: "spaces", Refs: []string{"orgs", "collections"}},
		{Name: "collections", Refs: []string{"orgs"}, SelfRefs: []SelfRef{{"parent_id", "id"}}},
		{Name: "users"},
		{Name: "orgs"},
		{Name: "a", Refs: []string{"b"}},
		{Name: "b", Refs: []string{"a"}},
		{Name: "gone", Refs: []string{"not_carried"}},
	}
	var got []string
	for _, t := range loadOrder(tables) {
		got = append(got, t.Name)
	}
	want := []string{"gone", "orgs", "collections", "spaces", "users", "comments", "a", "b"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("loadOrder = %v; want %v", got, want)
	}
}

func TestParentsFirst(t *testing.T) {
	cols := []Column{{Name: "id", Kind: KindText}, {Name: "parent_id", Kind: KindText}}
	rows := [][]any{{"c", "b"}, {"b", "a"}, {"x", nil}, {"a", nil}, {"d", "b"}, {"o", "orphan"}}
	got, err := parentsFirst(rows, cols, []SelfRef{{"parent_id", "id"}})
	if err != nil {
		t.Fatal(err)
	}
	pos := map[any]int{}
	for i, r := range got {
		pos[r[0]] = i
	}
	if len(got) != len(rows) {
		t.Fatalf("parentsFirst = %v; lost rows", got)
	}
	for _, r := range got {
		if p, ok := pos[r[1]]; ok && p > pos[r[0]] {
			t.Errorf("%v comes before its parent: %v", r, got)
		}
	}
	if _, err := parentsFirst(rows, cols, []SelfRef{{"parent", "id"}}); err == nil {
		t.Error("a foreign key of a column not carried was accepted")
	}
}
