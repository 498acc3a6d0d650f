package httpapi

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"quire/internal/quire"
)

// setRules sets a space's merge rules as the admin.
func (ts *testServer) setRules(t *testing.T, space string, rules ...map[string]any) {
	t.Helper()
	mr := map[string]any{"type": "rules", "rules": rules}
	if len(rules) == 0 {
		mr = map[string]any{"type": "none"}
	}
	ts.must(t, 200, "PATCH", "/v1/spaces/"+space, ts.token(cAdmin), map[string]any{"mergeRules": mr})
}

// rule builds a merge rule; users are given for the rules that list them.
func rule(kind string, users ...string) map[string]any {
	r := map[string]any{"rule": kind}
	if users != nil {
		r["users"] = users
	}
	return r
}

// refusedMerge merges as caller, expects the merge rules to refuse it
// naming each of rules, and checks that nothing changed.
func (ts *testServer) refusedMerge(t *testing.T, caller, space, cr string, rules ...string) {
	t.Helper()
	before, crBefore := ts.spaceRevision(t, space), ts.getCR(t, space, cr)
	msg := ts.mustError(t, 400, "POST", crPath(space, cr, "/merge"), ts.token(caller), nil)
	for _, r := range rules {
		wantContains(t, msg, r)
	}
	if got := ts.spaceRevision(t, space); got != before {
		t.Errorf("a refused merge moved the space to %s", got)
	}
	wantFields(t, ts.getCR(t, space, cr), map[string]any{"status": crBefore["status"], "revision": crBefore["revision"]})
	if _, err := ts.Store.MergeBypass(context.Background(), cr); !quire.IsNotFound(err) {
		t.Errorf("a refused merge recorded a bypass: %v", err)
	}
}

// mergeAs merges as caller and expects it to succeed.
func (ts *testServer) mergeAs(t *testing.T, caller, space, cr string) {
	t.Helper()
	wantFields(t, ts.must(t, 200, "POST", crPath(space, cr, "/merge"), ts.token(caller), nil), map[string]any{"result": "merge"})
	wantFields(t, ts.getCR(t, space, cr), map[string]any{"status": "merged"})
}

func TestMergeRuleKinds(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		reviewer, admin, creator := ts.user(cReview).ID, ts.user(cAdmin).ID, ts.user(cCreate).ID
		cases := []struct {
			name  string
			rules []map[string]any
			// block leaves the change request refused by the rule named;
			// fix makes it mergeable.
			block func(t *testing.T, sp, cr string)
			fix   func(t *testing.T, sp, cr string)
		}{
			{"require_specific_reviewers", []map[string]any{rule("require_specific_reviewers", reviewer, admin, ts.user(cEdit).ID)},
				func(t *testing.T, sp, cr string) { ts.review(t, cReview, sp, cr, "approved") },
				func(t *testing.T, sp, cr string) { ts.review(t, cAdmin, sp, cr, "approved") }},
			{"require_one_of_specific_reviewers", []map[string]any{rule("require_one_of_specific_reviewers", reviewer, creator)},
				func(t *testing.T, sp, cr string) {
					ts.review(t, cAdmin, sp, cr, "approved")
					ts.review(t, cReview, sp, cr, "changes-requested")
				},
				func(t *testing.T, sp, cr string) { ts.review(t, cCreate, sp, cr, "approved") }},
			{"require_at_least_one_review", []map[string]any{rule("require_at_least_one_review")},
				func(t *testing.T, sp, cr string) {
					// An approval made before the change request moved on
					// no longer counts.
					ts.review(t, cReview, sp, cr, "approved")
					ts.writeContentAs(t, ts.token(cEdit), sp, cr, insertPage("More", "More."))
				},
				func(t *testing.T, sp, cr string) { ts.review(t, cReview, sp, cr, "approved") }},
			{"require_all_reviews_approved", []map[string]any{rule("require_all_reviews_approved")},
				func(t *testing.T, sp, cr string) {
					ts.must(t, 200, "POST", crPath(sp, cr, "/requested-reviewers"), ts.token(cEdit),
						map[string]any{"users": []string{reviewer, admin}})
					ts.review(t, cReview, sp, cr, "approved")
					ts.refusedMerge(t, cEdit, sp, cr, "require_all_reviews_approved", "not reviewed")
					ts.review(t, cAdmin, sp, cr, "changes-requested")
				},
				func(t *testing.T, sp, cr string) { ts.review(t, cAdmin, sp, cr, "approved") }},
			{"require_up_to_date_change_request", []map[string]any{rule("require_up_to_date_change_request")},
				func(t *testing.T, sp, cr string) {
					other := ts.authoredCR(t, sp, "Other")
					ts.mergeCR(t, sp, other)
				},
				func(t *testing.T, sp, cr string) {
					wantFields(t, ts.must(t, 200, "POST", crPath(sp, cr, "/update"), ts.token(cEdit), nil), map[string]any{"result": "update"})
				}},
			{"require_change_request_subject", []map[string]any{rule("require_change_request_subject")},
				func(t *testing.T, sp, cr string) {
					ts.must(t, 200, "PATCH", crPath(sp, cr, ""), ts.token(cEdit), map[string]any{"subject": "  "})
				},
				func(t *testing.T, sp, cr string) {
					ts.must(t, 200, "PATCH", crPath(sp, cr, ""), ts.token(cEdit), map[string]any{"subject": "Named"})
				}},
			{"require_change_request_description", []map[string]any{rule("require_change_request_description")},
				func(t *testing.T, sp, cr string) {},
				func(t *testing.T, sp, cr string) {
					ts.must(t, 200, "PATCH", crPath(sp, cr, ""), ts.token(cEdit), map[string]any{"description": map[string]any{
						"object": "document", "data": map[string]any{}, "nodes": []any{map[string]any{"object": "block", "type": "paragraph",
							"nodes": []any{map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "Why", "marks": []any{}}}}}}}}})
				}},
			{"custom", []map[string]any{{"rule": "custom",
				"expression": `changeRequest.subject !== "" && reviews.length > 0 && any(reviews, .status === "approved" && .reviewer.id != actor.id)`}},
				func(t *testing.T, sp, cr string) { ts.review(t, cReview, sp, cr, "changes-requested") },
				func(t *testing.T, sp, cr string) { ts.review(t, cAdmin, sp, cr, "approved") }},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				sp := ts.newSpace(t, c.name)
				cr := ts.authoredCR(t, sp, "Change")
				ts.setRules(t, sp, c.rules...)
				c.block(t, sp, cr)
				ts.refusedMerge(t, cEdit, sp, cr, c.name)
				c.fix(t, sp, cr)
				ts.mergeAs(t, cEdit, sp, cr)
			})
		}

		t.Run("require_agent_review and allow_bypass", func(t *testing.T) {
			sp := ts.newSpace(t, "Bypass")
			cr := ts.authoredCR(t, sp, "Change")
			ts.setRules(t, sp, rule("require_agent_review"), rule("require_at_least_one_review"), rule("allow_bypass", ts.user(cEdit).ID))
			ts.refusedMerge(t, cAdmin, sp, cr, "require_agent_review", "require_at_least_one_review")
			res := ts.must(t, 200, "POST", crPath(sp, cr, "/merge"), ts.token(cEdit), nil)
			b, err := ts.Store.MergeBypass(context.Background(), cr)
			if err != nil {
				t.Fatalf("bypass not recorded: %v", err)
			}
			if b.UserID != ts.user(cEdit).ID || b.Revision != str(res, "revision") || b.SpaceID != sp ||
				!slices.Equal(b.Rules, []quire.MergeRuleKind{quire.RuleAgentReview, quire.RuleAtLeastOneReview}) {
				t.Errorf("bypass %+v", b)
			}
			// A merge the rules allow records no bypass.
			cr2 := ts.authoredCR(t, sp, "Second")
			ts.setRules(t, sp, rule("allow_bypass", ts.user(cEdit).ID))
			ts.mergeAs(t, cEdit, sp, cr2)
			if _, err := ts.Store.MergeBypass(context.Background(), cr2); !quire.IsNotFound(err) {
				t.Errorf("bypass recorded for an allowed merge: %v", err)
			}
		})

		t.Run("inherit and none", func(t *testing.T) {
			coll := ts.newCollection(t, "Rules", "")
			sp := ts.newSpaceIn(t, "Inherits", coll)
			wantFields(t, ts.must(t, 200, "GET", "/v1/spaces/"+sp, ts.token(cAdmin), nil), map[string]any{"mergeRules.type": "inherit"})
			ts.must(t, 200, "PATCH", ts.OrgPath(""), ts.token(cAdmin), map[string]any{"mergeRules": map[string]any{
				"type": "rules", "rules": []any{rule("require_specific_reviewers", reviewer)}}})
			t.Cleanup(func() {
				ts.must(t, 200, "PATCH", ts.OrgPath(""), ts.token(cAdmin), map[string]any{"mergeRules": map[string]any{"type": "none"}})
			})
			cr := ts.authoredCR(t, sp, "Change")
			ts.refusedMerge(t, cEdit, sp, cr, "require_specific_reviewers", reviewer)
			ts.setRules(t, sp)
			ts.mergeAs(t, cEdit, sp, cr)
		})

		t.Run("custom expressions are checked when set", func(t *testing.T) {
			sp := ts.newSpace(t, "Expressions")
			for _, c := range []struct{ expr, want string }{
				{`any(reviews,`, "line 1, column 12: unexpected token EOF"},
				{`len(reviews)`, "line 1, column 1: an expression must be a boolean expression"},
				{"len(reviews) > 0 &&\n  nosuch.field == 1", "line 2, column 3: unknown name nosuch"},
				{`changeRequest.nosuch == 1`, "line 1, column 15: unknown field nosuch"},
				{`size(reviews) > 1`, "unknown name size"},
				{`now() != nil`, "unknown name now"},
				{`len(1..100000) > 1`, "ranges of numbers"},
				{"  ", "the expression is empty"},
			} {
				msg := ts.mustError(t, 400, "PATCH", "/v1/spaces/"+sp, ts.token(cAdmin), map[string]any{"mergeRules": map[string]any{
					"type": "rules", "rules": []any{rule("require_at_least_one_review"), map[string]any{"rule": "custom", "expression": c.expr}}}})
				wantContains(t, msg, "mergeRules.rules[1].expression")
				wantContains(t, msg, c.want)
			}
			msg := ts.mustError(t, 400, "PATCH", ts.OrgPath(""), ts.token(cAdmin), map[string]any{"mergeRules": map[string]any{
				"type": "rules", "rules": []any{map[string]any{"rule": "custom", "expression": "1 +"}}}})
			wantContains(t, msg, "mergeRules.rules[0].expression")
			wantFields(t, ts.must(t, 200, "GET", "/v1/spaces/"+sp, ts.token(cAdmin), nil), map[string]any{"mergeRules.type": "inherit"})
		})
	})
}

// TestMergeRulesInBatch queues merges of one space together, one of them
// refused by the rules: the refusal is that merge's own answer, and the
// others merge.
func TestMergeRulesInBatch(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		sp := ts.newSpace(t, "Batch")
		ts.setRules(t, sp, rule("require_at_least_one_review"))
		const n = 6
		crs := make([]string, n)
		for i := range crs {
			crs[i] = ts.authoredCR(t, sp, "Change")
			if i != 2 {
				ts.review(t, cReview, sp, crs[i], "approved")
			}
		}
		codes := make([]int, n)
		done := make(chan int)
		for i, cr := range crs {
			go func() {
				codes[i] = ts.send(t, "POST", crPath(sp, cr, "/merge"), ts.token(cEdit), nil).Status
				done <- i
			}()
		}
		for range crs {
			<-done
		}
		for i, code := range codes {
			want := http.StatusOK
			if i == 2 {
				want = http.StatusBadRequest
			}
			if code != want {
				t.Errorf("merge %d: status %d, want %d", i, code, want)
			}
		}
		wantFields(t, ts.getCR(t, sp, crs[2]), map[string]any{"status": "draft"})
		pages := ts.must(t, 200, "GET", "/v1/spaces/"+sp+"/content/pages", ts.token(cRead), nil)["pages"].([]any)
		if len(pages) != n-1 {
			t.Errorf("%d pages merged, want %d", len(pages), n-1)
		}
	})
}
