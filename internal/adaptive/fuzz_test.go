package adaptive

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCheckCondition checks arbitrary conditions: CheckCondition must not
// panic, a refusal must be a *ConditionError placed inside the source, and
// an accepted condition must evaluate to a boolean or an error, never
// panic, for a visitor with claims and one without.
func FuzzCheckCondition(f *testing.F) {
	for _, seed := range []string{
		"visitor.claims.isBeta",
		`visitor.claims.plan === "pro" || !visitor.claims.unsigned.cookies`,
		"visitor.claims.seats >= 10 && visitor.claims.org.trial",
		`"admin" in visitor.claims.roles`,
		`any(visitor.claims.roles, # == "dev") ? true : false`,
		"visitor.claims.roles[2] == 'x'",
		"visitor.claims[visitor.claims.plan]",
		"visitor.claims.nope\n&& (",
		"let x = visitor.claims.seats; x > 1",
		`"a === b" !== visitor.claims.email`,
		"1..1000000 | len() > 0",
	} {
		f.Add(seed)
	}
	s := mustParse(f, testSchema)
	claims := map[string]any{"isBeta": true, "plan": "pro", "seats": 3, "roles": []any{"dev"},
		"org": map[string]any{"trial": true}, "unsigned": map[string]any{"bucket": "a"}}
	f.Fuzz(func(t *testing.T, src string) {
		cond, err := s.CompileCondition(src)
		if err != nil {
			var ce *ConditionError
			if !errors.As(err, &ce) {
				t.Fatalf("%q: error %v is not a *ConditionError", src, err)
			}
			lines := strings.Split(src, "\n")
			if ce.Line < 1 || ce.Line > len(lines) || ce.Column < 1 ||
				(utf8.ValidString(src) && len(src) <= MaxConditionLength && ce.Column > utf8.RuneCountInString(lines[ce.Line-1])+1) {
				t.Fatalf("%q: position %d:%d is outside the source", src, ce.Line, ce.Column)
			}
			if ce.Message == "" {
				t.Fatalf("%q: error without a message", src)
			}
			return
		}
		if err := s.CheckCondition(src); err != nil {
			t.Fatalf("%q compiles but does not check: %v", src, err)
		}
		_, _ = cond.Evaluate(claims)
		_, _ = cond.Evaluate(nil)
	})
}
