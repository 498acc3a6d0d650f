package service

import (
	"fmt"
	"strings"

	"github.com/expr-lang/expr/types"
	"github.com/expr-lang/expr/vm"

	"quire/internal/expression"
	"quire/internal/quire"
)

// mergeExpressionConfig says what the expression of a custom merge rule can
// name: the variables of the published MergeRulesEvaluationContext (space,
// changeRequest, reviews (the current ones), actor), each a strict object
// of the fields customRuleVars fills in.
func mergeExpressionConfig() expression.Config {
	user := types.Map{"object": types.String, "id": types.String}
	review := types.Map{"object": types.String, "id": types.String, "revision": types.String,
		"reviewer": user, "status": types.String, "outdated": types.Bool}
	return expression.Config{
		Env: types.Map{
			"space": types.Map{"object": types.String, "id": types.String, "title": types.String,
				"revision": types.String, "organization": types.String},
			"changeRequest": types.Map{"object": types.String, "id": types.String, "number": types.Int,
				"status": types.String, "subject": types.String, "space": types.String, "revision": types.String,
				"revisionInitial": types.String, "outdated": types.Bool, "comments": types.Int, "createdBy": user},
			"reviews": types.Array(review),
			"actor": types.Map{"object": types.String, "id": types.String, "displayName": types.String,
				"email": types.String},
		},
		Noun: "an expression",
		Message: func(msg string) string {
			if strings.HasPrefix(msg, "unknown name ") {
				msg += "; an expression reads space, changeRequest, reviews and actor"
			}
			return msg
		},
	}
}

// compileMergeExpression checks the expression of a custom rule and
// returns its program. A blank expression is refused: it would say
// nothing about the merge.
func compileMergeExpression(src string) (*vm.Program, error) {
	prg, err := expression.Compile(src, mergeExpressionConfig())
	if err != nil {
		return nil, err
	}
	if prg == nil {
		return nil, &expression.Error{Line: 1, Column: 1, Message: "the expression is empty"}
	}
	return prg, nil
}

// checkExpressions checks the expressions of a configuration's custom
// rules, naming the first that does not compile.
func (s *Service) checkExpressions(m quire.MergeRules) error {
	for i, r := range m.Rules {
		if r.Rule != quire.RuleCustom {
			continue
		}
		if _, err := compileMergeExpression(r.Expression); err != nil {
			return quire.Invalid(fmt.Sprintf("mergeRules.rules[%d].expression", i), "%s", err.Error())
		}
	}
	return nil
}

// evalCustomRule evaluates a custom rule's expression against the merge.
// An expression that does not compile or fails to evaluate is not met.
func (s *Service) evalCustomRule(f *mergeFacts, src string) (bool, string, error) {
	prg, err := compileMergeExpression(src)
	if err != nil {
		return false, "the expression does not compile: " + err.Error(), nil
	}
	vars, err := customRuleVars(f)
	if err != nil {
		return false, "", err
	}
	ok, err := expression.Run(prg, vars)
	if err != nil {
		return false, "the expression fails: " + err.Error(), nil
	}
	if !ok {
		return false, "the expression is false", nil
	}
	return true, "", nil
}

// customRuleVars returns the variables of a custom rule's expression, in
// the shapes mergeExpressionConfig declares.
func customRuleVars(f *mergeFacts) (map[string]any, error) {
	reviews, err := f.currentReviews()
	if err != nil {
		return nil, err
	}
	rs := make([]any, len(reviews))
	for i, r := range reviews {
		rs[i] = map[string]any{"object": "change-request-review", "id": r.ID, "revision": r.Revision,
			"reviewer": map[string]any{"object": "user", "id": r.Reviewer}, "status": string(r.Status),
			"outdated": false}
	}
	cr := f.cr
	return map[string]any{
		"space": map[string]any{"object": "space", "id": f.space.ID, "title": f.space.Title,
			"revision": f.space.Revision, "organization": f.space.OrgID},
		"changeRequest": map[string]any{"object": "change-request", "id": cr.ID, "number": int(cr.Number),
			"status": string(cr.Status), "subject": cr.Subject, "space": cr.SpaceID, "revision": cr.Revision,
			"revisionInitial": cr.RevisionInitial, "outdated": Outdated(cr, f.space), "comments": int(cr.Comments),
			"createdBy": map[string]any{"object": "user", "id": cr.CreatedBy}},
		"reviews": rs,
		"actor": map[string]any{"object": "user", "id": f.actor.ID, "displayName": f.actor.DisplayName,
			"email": f.actor.Email},
	}, nil
}
