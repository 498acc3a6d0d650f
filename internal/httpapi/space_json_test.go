package httpapi

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// TestSpaceJSONMatchesEncodingJSON checks that the Space object and its
// list envelope, written by hand, are byte for byte what encoding/json
// writes for the same values, across optional members and strings that
// need escaping.
func TestSpaceJSONMatchesEncodingJSON(t *testing.T) {
	str := func(s string) *string { return &s }
	tricky := "a\"b\\c\n\r\t\b\f\x01\x1f <>& é 漢 \u2028\u2029 \xff\xfe end"
	users := []string{"u1", tricky}
	rules := []mergeRuleJSON{
		{Rule: "require_specific_reviewers", Users: &users},
		{Rule: "custom", Expression: str(tricky)},
		{Rule: "allow_bypass", Users: new([]string)},
		{Rule: "require_at_least_one_review"},
	}
	var nilRules []mergeRuleJSON
	full := spaceJSON{
		Object: "space", ID: "sp1", Title: tricky, Emoji: "🚀", Visibility: "public",
		CreatedAt: "2024-01-02T03:04:05.006Z", UpdatedAt: "2024-01-02T03:04:05.007Z", DeletedAt: str("2024-02-02T00:00:00.000Z"),
		EditMode: "locked", MergeRules: mergeRulesJSON{Type: "rules", Rules: &rules},
		URLs: spaceURLs{Location: "http://x/v1/spaces/sp1", App: "http://x/app/s/sp1", Published: "http://x/docs/sp1",
			Public: "http://x/docs/sp1", Icon: "https://i.example/<a>?b=1&c=2"},
		Organization: "o1", Parent: "c1", Language: "fr", Revision: "r1", DefaultLevel: str("edit"),
		Comments: 3, ChangeRequests: -1, ChangeRequestsOpen: 1 << 40, ChangeRequestsDraft: 0,
		Permissions: spacePermissions{View: true, Access: true, Edit: true, Comment: true, InstallIntegration: true},
	}
	bare := spaceJSON{Object: "space", ID: "sp2", MergeRules: mergeRulesJSON{Type: "inherit"}}
	nullRules := spaceJSON{Object: "space", ID: "sp3", MergeRules: mergeRulesJSON{Type: "rules", Rules: &nilRules}}
	n := 7
	zero := 0
	cases := map[string]any{
		"full":            full,
		"bare":            bare,
		"null rules":      nullRules,
		"list":            listOf[spaceJSON]{Next: &nextPage{Page: "c\"ur"}, Count: &n, Items: []spaceJSON{full, bare, nullRules}},
		"empty list":      listOf[spaceJSON]{Items: []spaceJSON{}},
		"zero count":      listOf[spaceJSON]{Count: &zero, Items: []spaceJSON{bare}},
		"other list":      listOf[userJSON]{Items: []userJSON{{Object: "user", ID: "u<1>"}}},
		"not an appender": map[string]string{"k": tricky},
	}
	f := jsonFormat()
	for name, v := range cases {
		t.Run(name, func(t *testing.T) {
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(v); err != nil {
				t.Fatal(err)
			}
			// Twice, so that the second run reuses a pooled buffer.
			for range 2 {
				var got bytes.Buffer
				if err := f.Marshal(&got, v); err != nil {
					t.Fatal(err)
				}
				if got.String() != want.String() {
					t.Fatalf("got  %s\nwant %s", got.String(), want.String())
				}
			}
		})
	}
}

// TestTimestampMatchesFormat checks the hand-written timestamp against the
// layout it replaces, across zones, padding and the years it falls back on.
func TestTimestampMatchesFormat(t *testing.T) {
	east := time.FixedZone("east", 5*3600+1800)
	cases := []time.Time{
		time.Date(2024, 1, 2, 3, 4, 5, 6_000_000, time.UTC),
		time.Date(2024, 12, 31, 23, 59, 59, 999_999_999, time.UTC),
		time.Date(2025, 1, 1, 2, 0, 0, 0, east),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 1_000_000, time.UTC),
		time.Date(12345, 6, 7, 8, 9, 10, 0, time.UTC),
		time.Date(-44, 3, 15, 0, 0, 0, 0, time.UTC),
		time.UnixMilli(1_700_000_000_123),
	}
	for _, tm := range cases {
		if got, want := timestamp(tm), tm.UTC().Format("2006-01-02T15:04:05.000Z"); got != want {
			t.Errorf("timestamp(%v) = %s, want %s", tm, got, want)
		}
	}
}
