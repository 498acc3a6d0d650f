package adaptive

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestCheckConditionAccepts(t *testing.T) {
	s := mustParse(t, testSchema)
	for _, src := range []string{
		"",
		"   \n\t",
		"visitor.claims.isBeta",
		"!visitor.claims.isBeta",
		`visitor.claims.plan == "pro"`,
		`visitor.claims.plan === 'pro'`,
		`visitor.claims.plan !== "free" && visitor.claims.unsigned.cookies`,
		"visitor.claims.seats >= 10 || visitor.claims.org.trial",
		`"admin" in visitor.claims.roles`,
		`visitor.claims["my-flag"]`,
		`visitor.claims.unsigned.bucket == "a"`,
		`len(visitor.claims.roles) > 0`,
		`lower(visitor.claims.email) endsWith "@example.com"`,
		`any(visitor.claims.roles, # == "dev")`,
		`visitor.claims.plan in ["pro", "free"]`,
		"visitor.claims.isBeta\n  && visitor.claims.seats > 1",
		`visitor.claims.email == "a === b"`,
		`visitor.claims.roles[0] == "dev"`,
	} {
		if err := s.CheckCondition(src); err != nil {
			t.Errorf("CheckCondition(%q) = %v", src, err)
		}
	}
}

func TestCheckConditionRefuses(t *testing.T) {
	s := mustParse(t, testSchema)
	for _, tc := range []struct {
		src          string
		line, column int
		message      string
	}{
		{"visitor.claims.nope", 1, 16, "unknown claim nope"},
		{"visitor.claims.isBeta && visitor.claims.unsigned.nope", 1, 50, "unknown claim nope"},
		{"visitor.claims.isBeta &&\n  visitor.claims.plann == 'x'", 2, 18, "unknown claim plann"},
		{"visitor.nope", 1, 9, "unknown claim nope"},
		{"claims.isBeta", 1, 1, "unknown name claims"},
		{"visitor.claims.plan", 1, 1, "must be a boolean expression, this one is a string"},
		{"\n visitor.claims.seats + 1", 2, 2, "must be a boolean expression, this one is a number"},
		{"visitor.claims.roles", 1, 1, "this one is an array"},
		{"visitor.claims.org", 1, 1, "this one is an object"},
		{"visitor.claims.seats > 'x'", 1, 22, "mismatched types float64 and string"},
		{"visitor.claims.isBeta &&", 1, 24, "unexpected token EOF"},
		{"visitor.claims.isBeta = true", 1, 23, ""},
		{"visitor.claims[visitor.claims.plan]", 1, 16, "name the claim"},
		{"visitor.claims.isBeta ? 1 : 2", 1, 1, "this one is a number"},
		{"  (visitor.claims.seats)", 1, 4, "this one is a number"},
		{`repeat("a", 10) == "a"`, 1, 1, "unknown name repeat"},
		{`now() != nil`, 1, 1, "unknown name now"},
		{"'é' == 'é' && visitor.claims.nope", 1, 30, "unknown claim nope"},
		{strings.Repeat(" ", 1024) + "x", 1, 1025, "at most 1024 bytes"},
		{"\xff", 1, 1, "UTF-8"},
		{"len(1..1000000) > 0", 1, 5, "ranges of numbers"},
		{"visitor.claims.seats in 1..10", 1, 25, "ranges of numbers"},
		{`any(visitor.claims.roles, all(visitor.claims.roles, # == "dev"))`, 1, 27, "cannot hold another"},
	} {
		t.Run(tc.src, func(t *testing.T) {
			err := s.CheckCondition(tc.src)
			var ce *ConditionError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want a *ConditionError", err)
			}
			if ce.Line != tc.line || ce.Column != tc.column || !strings.Contains(ce.Message, tc.message) {
				t.Fatalf("got %d:%d %q, want %d:%d %q", ce.Line, ce.Column, ce.Message, tc.line, tc.column, tc.message)
			}
			if want := fmt.Sprintf("line %d, column %d: ", tc.line, tc.column); !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("Error() = %q, want prefix %q", err.Error(), want)
			}
		})
	}
}

func TestCheckConditionWithoutUnsigned(t *testing.T) {
	s := mustParse(t, `{"type":"object","properties":{"a":{"type":"boolean","description":"a"}},"additionalProperties":false}`)
	var ce *ConditionError
	if err := s.CheckCondition("visitor.claims.unsigned.a"); !errors.As(err, &ce) || !strings.Contains(ce.Message, "unknown claim unsigned") {
		t.Fatalf("got %v, want unknown claim unsigned", err)
	}
}

func TestEvaluate(t *testing.T) {
	s := mustParse(t, testSchema)
	claims := map[string]any{
		"isBeta": true,
		"plan":   "pro",
		"email":  "Ann@Example.com",
		"seats":  json.Number("12"),
		"roles":  []string{"dev"},
		"org":    map[string]any{"trial": true, "name": "Acme", "extra": 1},
		"other":  "not declared",
		"unsigned": map[string]any{
			"bucket": "b",
		},
	}
	for _, tc := range []struct {
		src    string
		claims map[string]any
		want   bool
	}{
		{"", nil, true},
		{"visitor.claims.isBeta", claims, true},
		{"visitor.claims.isBeta", nil, false},
		{"!visitor.claims.isBeta", nil, true},
		{"!visitor.claims.isBeta", map[string]any{"isBeta": "yes"}, true},
		{`visitor.claims.plan === "pro"`, claims, true},
		{`visitor.claims.plan !== "pro"`, claims, false},
		{"visitor.claims.seats > 10", claims, true},
		{"visitor.claims.seats > 10", map[string]any{"seats": 11}, true},
		{"visitor.claims.seats > 10", map[string]any{"seats": uint8(9)}, false},
		{"visitor.claims.seats == 0", map[string]any{"seats": "12"}, true},
		{`"dev" in visitor.claims.roles`, claims, true},
		{`"admin" in visitor.claims.roles`, claims, false},
		{"visitor.claims.roles.length === 1", claims, true},
		{`len(visitor.claims.roles) == 0`, nil, true},
		{`lower(visitor.claims.email) endsWith "@example.com"`, claims, true},
		{"visitor.claims.org.trial && visitor.claims.org.name == 'Acme'", claims, true},
		{"visitor.claims.org.trial", map[string]any{"org": "flat"}, false},
		{`visitor.claims.unsigned.bucket == "b"`, claims, true},
		{`visitor.claims.unsigned.cookies`, claims, false},
		{`visitor.claims.unsigned.bucket == ""`, map[string]any{"unsigned": "x"}, true},
	} {
		got, err := s.mustCompile(t, tc.src).Evaluate(tc.claims)
		if err != nil || got != tc.want {
			t.Errorf("%q with %v = %v, %v; want %v", tc.src, tc.claims, got, err, tc.want)
		}
	}
}

func TestEvaluateRuntimeError(t *testing.T) {
	s := mustParse(t, testSchema)
	got, err := s.mustCompile(t, `visitor.claims.roles[3] == "dev"`).Evaluate(map[string]any{"roles": []any{"dev"}})
	if err == nil || got {
		t.Fatalf("got %v, %v; want false and an error", got, err)
	}
}

func TestConditionsCache(t *testing.T) {
	s := mustParse(t, testSchema)
	c := NewConditions(2)
	a, err := c.Compile(s, "visitor.claims.isBeta")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := c.Compile(s, "visitor.claims.isBeta")
	if a != again {
		t.Fatal("the second compile of a condition did not come from the cache")
	}
	// The same document parsed again shares the entry; another document does not.
	if b, _ := c.Compile(mustParse(t, testSchema), "visitor.claims.isBeta"); b != a {
		t.Fatal("an identical schema did not share the cached condition")
	}
	other := mustParse(t, `{"type":"object","properties":{"isBeta":{"type":"string","description":"x"}},"additionalProperties":false}`)
	if _, err := c.Compile(other, "visitor.claims.isBeta"); err == nil {
		t.Fatal("a condition compiled for one schema was reused for another")
	}
	// Errors are cached too, and the cache stays within its size.
	for i := range 5 {
		if _, err := c.Compile(s, fmt.Sprintf("visitor.claims.x%d", i)); err == nil {
			t.Fatal("an unknown claim compiled")
		}
	}
	if n := c.Len(); n != 2 {
		t.Fatalf("cache holds %d conditions, want 2", n)
	}
	ok, err := c.Evaluate(s, "visitor.claims.isBeta", map[string]any{"isBeta": true})
	if err != nil || !ok {
		t.Fatalf("Evaluate = %v, %v", ok, err)
	}
	var ce *ConditionError
	if _, err := c.Evaluate(s, "visitor.claims.gone", nil); !errors.As(err, &ce) {
		t.Fatalf("Evaluate of a condition that no longer compiles: %v", err)
	}
	if NewConditions(0).cache == nil {
		t.Fatal("NewConditions(0) has no cache")
	}
}

func TestConditionsConcurrent(t *testing.T) {
	s := mustParse(t, testSchema)
	c := NewConditions(8)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				src := fmt.Sprintf("visitor.claims.seats > %d", (g+i)%16)
				got, err := c.Evaluate(s, src, map[string]any{"seats": 8})
				if err != nil || got != (8 > (g+i)%16) {
					t.Errorf("%s = %v, %v", src, got, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestEvaluateCapsArrays(t *testing.T) {
	s := mustParse(t, testSchema)
	roles := make([]string, 5000)
	roles[len(roles)-1] = "dev"
	c := s.mustCompile(t, `len(visitor.claims.roles) == 1000 && !("dev" in visitor.claims.roles)`)
	if ok, err := c.Evaluate(map[string]any{"roles": roles}); err != nil || !ok {
		t.Fatalf("got %v, %v; want the array cut at 1000 items", ok, err)
	}
}
