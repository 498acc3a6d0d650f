package gitbook

import (
	"bytes"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"quire/internal/quire"
)

// writeFrontMatter renders a page's front matter, with its "---" lines,
// or "" when every value is the default. cover is the cover target as it
// is to be written.
func writeFrontMatter(p *Page, cover string) (string, error) {
	if p.FrontMatter != "" {
		fm, warnings := parseFrontMatter(p.FrontMatter)
		if len(warnings) == 0 && fm.agrees(p, cover) {
			return "---\n" + p.FrontMatter + "---\n", nil
		}
		if len(p.Extra) == 0 && len(fm.Extra) > 0 {
			// The keys the page cannot hold, from the front matter read.
			q := *p
			q.Extra, q.FrontMatter = fm.Extra, ""
			return writeFrontMatter(&q, cover)
		}
	}
	m := &yaml.Node{Kind: yaml.MappingNode}
	added := map[string]bool{}
	add := func(key string, v any) error {
		added[key] = true
		val, err := valueNode(v)
		if err != nil {
			return err
		}
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, val)
		return nil
	}
	type entry struct {
		key  string
		v    any
		keep bool
	}
	var layoutExtra map[string]any
	if le, ok := p.Extra[fmLayout].(map[string]any); ok {
		layoutExtra = le
	}
	layout := layoutToYAML(p.Layout, layoutExtra)
	var coverY any
	if p.Cover != nil && p.Cover.YPos != 0 {
		coverY = yamlNumber(p.Cover.YPos)
	}
	entries := []entry{
		{fmDescription, p.Description, p.Description != ""},
		{fmIcon, p.Icon, p.Icon != ""},
		{fmCover, cover, cover != ""},
		{fmCoverY, coverY, coverY != nil},
		{fmLayout, orderedLayout(layout), layout != nil},
		{fmHidden, true, p.Hidden},
		{fmNoIndex, true, p.NoIndex},
		{fmNoRobotsIndex, true, p.NoRobotsIndex},
		{fmIf, p.Condition, p.Condition != ""},
		{fmVars, p.Variables, len(p.Variables) > 0},
	}
	for _, e := range entries {
		if e.keep {
			if err := add(e.key, e.v); err != nil {
				return "", err
			}
		}
	}
	extras := make([]string, 0, len(p.Extra))
	for k := range p.Extra {
		if k != fmLayout || layoutExtra == nil {
			extras = append(extras, k)
		}
	}
	sort.Strings(extras)
	for _, k := range extras {
		if added[k] {
			continue
		}
		if err := add(k, p.Extra[k]); err != nil {
			return "", err
		}
	}
	if len(m.Content) == 0 {
		return "", nil
	}
	var buf bytes.Buffer
	buf.WriteString("---\n")
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if v.Kind == yaml.ScalarNode && v.Tag == "!!str" && !strings.ContainsAny(k.Value, ":#'\"\n") && plainSafeFirst(firstRune(k.Value)) {
			// Strings as GitBook writes them.
			buf.WriteString(k.Value + ":" + writeStringValue(v.Value) + "\n")
			continue
		}
		enc := yaml.NewEncoder(&buf)
		enc.SetIndent(2)
		pair := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{k, v}}
		if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{pair}}); err != nil {
			return "", err
		}
		if err := enc.Close(); err != nil {
			return "", err
		}
	}
	buf.WriteString("---\n")
	return buf.String(), nil
}

// yamlNumber writes a whole number as an int, so that "coverY: 120" is not
// written "120.0".
func yamlNumber(f float64) any {
	if f == float64(int64(f)) {
		return int64(f)
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', -1, 64), 64)
	return v
}

// orderedLayout writes a layout block with its keys in GitBook's order,
// then any others by name.
func orderedLayout(m map[string]any) *yaml.Node {
	if m == nil {
		return nil
	}
	order := []string{layoutWidth, layoutCover, layoutTitle, layoutDesc, layoutTOC, layoutOutline, layoutPaginate, layoutMetadata}
	known := map[string]bool{}
	for _, k := range order {
		known[k] = true
	}
	var rest []string
	for k := range m {
		if !known[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	n := &yaml.Node{Kind: yaml.MappingNode}
	for _, k := range append(order, rest...) {
		v, ok := m[k]
		if !ok {
			continue
		}
		val, err := valueNode(v)
		if err != nil {
			continue
		}
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, val)
	}
	return n
}

// valueNode makes the YAML node of a value: strings and booleans
// directly (the common case, and much cheaper), anything else through
// the encoder.
func valueNode(v any) (*yaml.Node, error) {
	switch x := v.(type) {
	case *yaml.Node:
		return x, nil
	case string:
		n := &yaml.Node{}
		n.SetString(x)
		if strings.ContainsAny(x, "\n\r") {
			n.Style = yaml.DoubleQuotedStyle
		}
		return n, nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(x)}, nil
	case int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(x, 10)}, nil
	}
	n := &yaml.Node{}
	if err := n.Encode(v); err != nil {
		return nil, err
	}
	return n, nil
}

// agrees reports whether the front matter read says what the page holds,
// with cover the cover target as it is to be written.
func (fm frontMatter) agrees(p *Page, cover string) bool {
	if fm.Description != p.Description || fm.Icon != p.Icon || fm.Hidden != p.Hidden ||
		fm.NoIndex != p.NoIndex || fm.NoRobotsIndex != p.NoRobotsIndex || fm.Condition != p.Condition ||
		fm.Cover != cover || !sameVariables(fm.Variables, p.Variables) {
		return false
	}
	y := 0.0
	if p.Cover != nil {
		y = p.Cover.YPos
	}
	if fm.CoverY != y {
		return false
	}
	a, b := quire.DefaultPageLayout(), quire.DefaultPageLayout()
	if fm.Layout != nil {
		a = *fm.Layout
	}
	if p.Layout != nil {
		b = *p.Layout
	}
	a.Width, b.Width = orDefault(a.Width, widthDefault), orDefault(b.Width, widthDefault)
	a.CoverSize, b.CoverSize = orDefault(a.CoverSize, coverSizeHero), orDefault(b.CoverSize, coverSizeHero)
	return a == b
}

// sameVariables compares two sets of page variables, nil being empty.
func sameVariables(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
