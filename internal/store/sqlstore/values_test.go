package sqlstore

import (
	"reflect"
	"testing"

	"quire/internal/quire"
)

func TestMergeRulesRoundTrip(t *testing.T) {
	for _, m := range []quire.MergeRules{
		{Type: "inherit"},
		{Type: "none"},
		{Type: "rules", Rules: []quire.MergeRule{{Rule: "require_specific_reviewers", Users: []string{"u1"}}, {Rule: "custom", Expression: "x"}}},
	} {
		got, err := decodeMergeRules(encodeMergeRules(m))
		if err != nil || !reflect.DeepEqual(got, m) {
			t.Errorf("round trip of %+v gave %+v, %v", m, got, err)
		}
	}
}
