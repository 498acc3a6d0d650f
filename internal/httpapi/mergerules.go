package httpapi

import "quire/internal/quire"

// mergeRulesJSON is a merge rules configuration.
type mergeRulesJSON struct {
	Type  string           `json:"type" enum:"inherit,rules,none"`
	Rules *[]mergeRuleJSON `json:"rules,omitempty"`
}

// mergeRuleJSON is one merge rule.
type mergeRuleJSON struct {
	Rule       string    `json:"rule" enum:"require_specific_reviewers,require_one_of_specific_reviewers,allow_bypass,require_at_least_one_review,require_all_reviews_approved,require_agent_review,require_up_to_date_change_request,require_change_request_subject,require_change_request_description,custom"`
	Users      *[]string `json:"users,omitempty"`
	Expression *string   `json:"expression,omitempty" maxLength:"1024"`
}

// mergeRulesInput is a merge rules configuration in a request.
type mergeRulesInput struct {
	Type  string           `json:"type" enum:"inherit,rules,none"`
	Rules []mergeRuleInput `json:"rules,omitempty" maxItems:"50"`
}

// mergeRuleInput is one merge rule in a request.
type mergeRuleInput struct {
	Rule       string    `json:"rule" enum:"require_specific_reviewers,require_one_of_specific_reviewers,allow_bypass,require_at_least_one_review,require_all_reviews_approved,require_agent_review,require_up_to_date_change_request,require_change_request_subject,require_change_request_description,custom"`
	Users      *[]string `json:"users,omitempty" maxItems:"100"`
	Expression *string   `json:"expression,omitempty" maxLength:"1024"`
}

// domain converts the request form.
func (m mergeRulesInput) domain() quire.MergeRules {
	out := quire.MergeRules{Type: quire.MergeRulesType(m.Type)}
	for _, r := range m.Rules {
		mr := quire.MergeRule{Rule: quire.MergeRuleKind(r.Rule)}
		if r.Users != nil {
			mr.Users = append([]string{}, (*r.Users)...)
		}
		if r.Expression != nil {
			mr.Expression = *r.Expression
		}
		out.Rules = append(out.Rules, mr)
	}
	return out
}

// mergeRulesOut converts merge rules for a response.
func mergeRulesOut(m quire.MergeRules) mergeRulesJSON {
	out := mergeRulesJSON{Type: string(m.Type)}
	if out.Type == "" {
		out.Type = string(quire.MergeRulesNone)
	}
	if m.Type != quire.MergeRulesRules {
		return out
	}
	rules := []mergeRuleJSON{}
	for _, r := range m.Rules {
		mr := mergeRuleJSON{Rule: string(r.Rule)}
		switch r.Rule {
		case quire.RuleSpecificReviewers, quire.RuleOneOfSpecificReviewers, quire.RuleAllowBypass:
			users := append([]string{}, r.Users...)
			mr.Users = &users
		case quire.RuleCustom:
			expr := r.Expression
			mr.Expression = &expr
		}
		rules = append(rules, mr)
	}
	out.Rules = &rules
	return out
}
