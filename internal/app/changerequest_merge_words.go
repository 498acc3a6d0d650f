package app

import (
	"fmt"
	"slices"
	"strings"

	"quire/internal/quire"
	"quire/internal/service"
)

// mergeWords is the merge rules' state in words, for the change request
// page: a headline, one line per rule, and whether the viewer may merge
// now or why not.
type mergeWords struct {
	// Headline sums it up: "Approved", "1 of 2 approvals", "Needs
	// approval from Rob Reviewer", "Ready to merge".
	Headline string
	Lines    []ruleLine
	// CanMerge is set when the Merge button is enabled for the viewer;
	// Reason says why not otherwise.
	CanMerge bool
	Reason   string
	// Bypass is set when the viewer merges only by bypassing the rules.
	Bypass bool
}

// ruleLine is one merge rule, met or not, in words.
type ruleLine struct {
	Text string
	Met  bool
}

// mergeWordsFor says the merge state st of cr for a viewer at level, with
// names the display names of the organization's members by id.
func mergeWordsFor(st *service.MergeState, cr *quire.ChangeRequest, level quire.Level, names map[string]string) mergeWords {
	name := func(id string) string {
		if n := names[id]; n != "" {
			return n
		}
		return "a former member"
	}
	approvedBy := func(ids []string) string {
		var out []string
		for _, id := range ids {
			out = append(out, name(id))
		}
		return "Approved by " + strings.Join(out, ", ")
	}
	var out mergeWords
	need, have := 0, 0
	for _, r := range st.Rules {
		switch r.Rule {
		case quire.RuleAllowBypass:
			continue
		case quire.RuleSpecificReviewers:
			var ok, missing []string
			for _, id := range r.Users {
				switch {
				case id == cr.CreatedBy:
				case st.Approvers[id]:
					ok = append(ok, id)
				default:
					missing = append(missing, id)
				}
			}
			need, have = need+len(ok)+len(missing), have+len(ok)
			if len(missing) == 0 {
				out.Lines = append(out.Lines, ruleLine{Text: approvedBy(ok), Met: true})
				continue
			}
			var who []string
			for _, id := range missing {
				who = append(who, name(id))
			}
			out.Lines = append(out.Lines, ruleLine{Text: "Needs approval from " + strings.Join(who, ", ")})
		case quire.RuleOneOfSpecificReviewers:
			var ok, who []string
			for _, id := range r.Users {
				if st.Approvers[id] {
					ok = append(ok, id)
				}
				who = append(who, name(id))
			}
			need++
			if len(ok) > 0 {
				have++
				out.Lines = append(out.Lines, ruleLine{Text: approvedBy(ok), Met: true})
			} else {
				out.Lines = append(out.Lines, ruleLine{Text: "Needs approval from one of " + strings.Join(who, ", ")})
			}
		case quire.RuleAtLeastOneReview:
			need++
			if len(st.Approvers) > 0 {
				have++
				out.Lines = append(out.Lines, ruleLine{Text: approvedBy(sortedKeys(st.Approvers)), Met: true})
			} else {
				out.Lines = append(out.Lines, ruleLine{Text: "Needs at least one approval"})
			}
		default:
			line := ruleLine{Text: ruleName(r.Rule), Met: true}
			for _, f := range st.Check.Failures {
				if f.Rule == r.Rule {
					line = ruleLine{Text: ruleName(r.Rule) + ": " + f.Reason}
				}
			}
			out.Lines = append(out.Lines, line)
		}
	}
	failing := len(st.Check.Failures) > 0
	switch {
	case !failing && len(st.Approvers) > 0:
		out.Headline = "Approved"
	case !failing:
		out.Headline = "Ready to merge"
	case need > 1:
		out.Headline = fmt.Sprintf("%d of %d approvals", have, need)
	default:
		out.Headline = firstUnmet(out.Lines)
	}
	switch {
	case cr.Status == quire.CRMerged:
		out.Reason = "This change request is merged."
	case cr.Status == quire.CRArchived:
		out.Reason = "This change request is archived: reopen it to merge it."
	case level < quire.LevelEdit:
		out.Reason = "Merging needs the edit role or above on this space."
	case !st.Check.Allowed():
		out.Reason = firstUnmet(out.Lines) + "."
	default:
		out.CanMerge, out.Bypass = true, st.Check.Bypassed()
	}
	return out
}

// firstUnmet is the text of the first rule not met.
func firstUnmet(lines []ruleLine) string {
	for _, l := range lines {
		if !l.Met {
			return l.Text
		}
	}
	return "The merge rules are not met"
}

// sortedKeys returns a set's keys in order.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// ruleName names a merge rule that is not about approvals.
func ruleName(k quire.MergeRuleKind) string {
	switch k {
	case quire.RuleAllReviewsApproved:
		return "Every review approves"
	case quire.RuleAgentReview:
		return "An agent review"
	case quire.RuleUpToDate:
		return "Up to date with main"
	case quire.RuleSubject:
		return "A subject"
	case quire.RuleDescription:
		return "A description"
	case quire.RuleCustom:
		return "A custom rule"
	}
	return string(k)
}
