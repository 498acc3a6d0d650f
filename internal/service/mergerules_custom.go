package service

import (
	"fmt"
	"strings"
	"sync"

	"cel.dev/cel-go/cel"

	"quire/internal/quire"
)

// mergeExprCostLimit bounds the work of one evaluation of a custom merge
// rule (CEL cost units: about one per operation and per list element
// visited), so an expression over a long list of reviews cannot hold a
// merge batch.
const mergeExprCostLimit = 100_000

// mergeExpressions compiles and runs the expressions of custom merge
// rules. They are CEL expressions over the variables of the evaluation
// context (space, changeRequest, reviews, actor), with JavaScript's === and
// !== read as == and !=. The environment is built on first use.
type mergeExpressions struct {
	once sync.Once
	env  *cel.Env
	err  error
}

// compile checks an expression and returns its program; the expression
// must be a boolean.
func (m *mergeExpressions) compile(expr string) (cel.Program, error) {
	m.once.Do(func() {
		m.env, m.err = cel.NewEnv(
			cel.Variable("space", cel.DynType),
			cel.Variable("changeRequest", cel.DynType),
			cel.Variable("reviews", cel.ListType(cel.DynType)),
			cel.Variable("actor", cel.DynType),
		)
	})
	if m.err != nil {
		return nil, m.err
	}
	ast, iss := m.env.Compile(strictEquality(expr))
	if iss != nil && iss.Err() != nil {
		return nil, quire.Errorf(quire.EINVALID, "%s", strings.ReplaceAll(iss.Err().Error(), "\n", " "))
	}
	if t := ast.OutputType(); t != cel.BoolType && t != cel.DynType {
		return nil, quire.Errorf(quire.EINVALID, "the expression gives %s, not a boolean", t)
	}
	return m.env.Program(ast, cel.CostLimit(mergeExprCostLimit))
}

// strictEquality rewrites JavaScript's === and !== outside string
// literals as == and !=.
func strictEquality(expr string) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		switch {
		case quote != 0:
			b.WriteByte(c)
			if c == '\\' && i+1 < len(expr) {
				i++
				b.WriteByte(expr[i])
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
			b.WriteByte(c)
		case (c == '=' || c == '!') && strings.HasPrefix(expr[i+1:], "=="):
			b.WriteByte(c)
			b.WriteByte('=')
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// checkExpressions checks the expressions of a configuration's custom
// rules, naming the first that does not compile.
func (s *Service) checkExpressions(m quire.MergeRules) error {
	for i, r := range m.Rules {
		if r.Rule != quire.RuleCustom {
			continue
		}
		if _, err := s.mergeExprs.compile(r.Expression); err != nil {
			return quire.Invalid(fmt.Sprintf("mergeRules.rules[%d].expression", i), "%s", quire.ErrorMessage(err))
		}
	}
	return nil
}

// evalCustomRule evaluates a custom rule's expression against the merge.
// An expression that does not compile or fails to evaluate is not met.
func (s *Service) evalCustomRule(f *mergeFacts, expr string) (bool, string, error) {
	prg, err := s.mergeExprs.compile(expr)
	if err != nil {
		return false, "the expression does not compile: " + quire.ErrorMessage(err), nil
	}
	reviews, err := f.currentReviews()
	if err != nil {
		return false, "", err
	}
	rs := make([]any, len(reviews))
	for i, r := range reviews {
		rs[i] = map[string]any{"object": "change-request-review", "id": r.ID, "revision": r.Revision,
			"reviewer": map[string]any{"object": "user", "id": r.Reviewer}, "status": string(r.Status),
			"outdated": false}
	}
	cr := f.cr
	vars := map[string]any{
		"space": map[string]any{"object": "space", "id": f.space.ID, "title": f.space.Title,
			"revision": f.space.Revision, "organization": f.space.OrgID},
		"changeRequest": map[string]any{"object": "change-request", "id": cr.ID, "number": int64(cr.Number),
			"status": string(cr.Status), "subject": cr.Subject, "space": cr.SpaceID, "revision": cr.Revision,
			"revisionInitial": cr.RevisionInitial, "outdated": Outdated(cr, f.space), "comments": int64(cr.Comments),
			"createdBy": map[string]any{"object": "user", "id": cr.CreatedBy}},
		"reviews": rs,
		"actor": map[string]any{"object": "user", "id": f.actor.ID, "displayName": f.actor.DisplayName,
			"email": f.actor.Email},
	}
	out, _, err := prg.Eval(vars)
	if err != nil {
		return false, "the expression fails: " + err.Error(), nil
	}
	ok, isBool := out.Value().(bool)
	if !isBool {
		return false, "the expression is not a boolean", nil
	}
	if !ok {
		return false, "the expression is false", nil
	}
	return true, "", nil
}
