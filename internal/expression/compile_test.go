package expression

import (
	"errors"
	"strings"
	"testing"

	"github.com/expr-lang/expr/types"
)

// testConfig declares an array, a string and an object with its own
// field named length.
func testConfig() Config {
	return Config{
		Env: types.Map{
			"items": types.Array(types.Map{"status": types.String}),
			"name":  types.String,
			"box":   types.Map{"length": types.Int},
		},
		Noun: "an expression",
	}
}

func TestCompileAndRun(t *testing.T) {
	vars := map[string]any{
		"items": []any{map[string]any{"status": "ok"}, map[string]any{"status": "no"}},
		"name":  "héllo",
		"box":   map[string]any{"length": 7},
	}
	for _, c := range []struct {
		src  string
		want bool
	}{
		{`items.length == 2`, true},
		{`len(items) === 2 && items.length !== 3`, true},
		{`name.length == 5`, true},
		{`box.length == 7`, true},
		{`any(items, .status === "ok")`, true},
		{`all(items, .status == "ok")`, false},
		{`count(items, .status != "ok") == 1`, true},
		{`name == "a === b"`, false},
		{`"ok" in map(items, .status)`, true},
	} {
		prg, err := Compile(c.src, testConfig())
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		got, err := Run(prg, vars)
		if err != nil || got != c.want {
			t.Errorf("%s = %v, %v; want %v", c.src, got, err, c.want)
		}
	}
}

func TestCompileRefuses(t *testing.T) {
	for _, c := range []struct {
		src       string
		line, col int
		want      string
	}{
		{"items", 1, 1, "an expression must be a boolean expression, this one is an array"},
		{"name.length", 1, 1, "this one is a number"},
		{"box.size == 1", 1, 5, "unknown field size"},
		{"nope == 1", 1, 1, "unknown name nope"},
		{"len(items) > 0 &&\n  len(1..9) > 0", 2, 7, "ranges of numbers (a..b) are not allowed in an expression"},
		{`any(items, all(items, .status == "ok"))`, 1, 12, "cannot hold another"},
		{`repeat("a", 9) == "a"`, 1, 1, "unknown name repeat"},
		{`now() != nil`, 1, 1, "unknown name now"},
		{"name ==", 1, 7, "unexpected token EOF"},
		{"\xff", 1, 1, "UTF-8"},
		{strings.Repeat(" ", MaxLength) + "x", 1, MaxLength + 1, "at most 1024 bytes"},
	} {
		_, err := Compile(c.src, testConfig())
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: got %v, want an *Error", c.src, err)
			continue
		}
		if e.Line != c.line || e.Column != c.col || !strings.Contains(e.Message, c.want) {
			t.Errorf("%q: got %d:%d %q, want %d:%d %q", c.src, e.Line, e.Column, e.Message, c.line, c.col, c.want)
		}
	}
}

func TestCompileBlank(t *testing.T) {
	if prg, err := Compile(" \n ", testConfig()); prg != nil || err != nil {
		t.Errorf("blank: %v, %v; want no program and no error", prg, err)
	}
}

func TestCompileMessage(t *testing.T) {
	c := testConfig()
	c.Message = func(msg string) string { return "rewritten: " + msg }
	_, err := Compile("nope == 1", c)
	if err == nil || !strings.Contains(err.Error(), "rewritten: unknown name nope") {
		t.Errorf("got %v", err)
	}
}
