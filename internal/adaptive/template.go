package adaptive

import (
	"strconv"
	"strings"
)

// TemplateCondition is a condition suggested from a visitor schema for
// editors to start from (the published SiteAdaptiveTemplateCondition).
type TemplateCondition struct {
	Description string `json:"description"`
	Condition   string `json:"condition"`
}

// TemplateConditions lists the conditions the schema suggests: one per
// boolean claim (visitor.claims.<name>, visitor.claims.unsigned.<name> for
// unsigned claims, visitor.claims.<object>.<name> inside object claims),
// one per value of a string claim with an enum (visitor.claims.<name> ==
// "<value>"), and one per value of an array of such strings ("<value>" in
// visitor.claims.<name>). Signed claims come first, then unsigned ones,
// each in name order. Every condition passes CheckCondition.
func (s *Schema) TemplateConditions() []TemplateCondition {
	out := []TemplateCondition{}
	out = templates(out, "visitor.claims", s.claims)
	if s.unsigned != nil {
		out = templates(out, "visitor.claims.unsigned", s.unsigned)
	}
	return out
}

// templates appends the templates of a set of claims under path.
func templates(out []TemplateCondition, path string, claims map[string]*claim) []TemplateCondition {
	for _, name := range sortedNames(claims) {
		c := claims[name]
		at := member(path, name)
		desc := c.description
		if desc == "" {
			desc = name
		}
		switch {
		case c.kind == kindBoolean:
			out = append(out, TemplateCondition{Description: desc, Condition: at})
		case c.kind == kindString && c.hasEnum:
			for _, v := range c.enum {
				out = append(out, TemplateCondition{Description: desc + ": " + v, Condition: at + " == " + strconv.Quote(v)})
			}
		case c.kind == kindArray && c.items.kind == kindString && c.items.hasEnum:
			for _, v := range c.items.enum {
				out = append(out, TemplateCondition{Description: desc + ": " + v, Condition: strconv.Quote(v) + " in " + at})
			}
		case c.kind == kindObject:
			out = templates(out, at, c.properties)
		}
	}
	return out
}

// plainName reports whether name may follow a dot in a condition: an
// identifier that is not a word of the condition language.
func plainName(name string) bool {
	switch name {
	case "", "true", "false", "nil", "in", "not", "and", "or", "matches", "contains",
		"startsWith", "endsWith", "let", "if", "else":
		return false
	}
	for i, r := range name {
		letter := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// member renders the access to a member of path: path.name when name is a
// plain identifier, path["name"] otherwise.
func member(path, name string) string {
	if plainName(name) {
		return path + "." + name
	}
	var b strings.Builder
	b.WriteString(path)
	b.WriteByte('[')
	b.WriteString(strconv.Quote(name))
	b.WriteByte(']')
	return b.String()
}
