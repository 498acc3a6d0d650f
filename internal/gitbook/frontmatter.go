package gitbook

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"quire/internal/quire"
)

// Front-matter keys.
const (
	fmDescription   = "description"
	fmIcon          = "icon"
	fmEmoji         = "emoji"
	fmHidden        = "hidden"
	fmNoIndex       = "noIndex"
	fmNoRobotsIndex = "noRobotsIndex"
	fmIf            = "if"
	fmVars          = "vars"
	fmCover         = "cover"
	fmCoverY        = "coverY"
	fmLayout        = "layout"
)

// frontMatter is the front matter of a page file as read: the mapped
// keys, the cover as written, and the keys left over.
type frontMatter struct {
	Description   string
	Icon          string
	Emoji         string
	Hidden        bool
	NoIndex       bool
	NoRobotsIndex bool
	Condition     string
	Variables     map[string]string
	Cover         string
	CoverY        float64
	HasCoverY     bool
	Layout        *quire.PageLayout
	Extra         map[string]any
}

// splitFrontMatter separates a leading "---" YAML block from the rest of
// a page file. Without a closing "---" (or "...") line there is no front
// matter.
func splitFrontMatter(src string) (yamlText, body string, found bool) {
	src = strings.TrimPrefix(src, "\uFEFF")
	first, rest, ok := strings.Cut(src, "\n")
	if !ok || strings.TrimRight(first, " \t\r") != "---" {
		return "", src, false
	}
	pos := 0
	for pos <= len(rest) {
		line, _, more := strings.Cut(rest[pos:], "\n")
		if t := strings.TrimRight(line, " \t\r"); t == "---" || t == "..." {
			end := pos + len(line)
			if more {
				end++
			}
			return rest[:pos], rest[end:], true
		}
		if !more {
			break
		}
		pos += len(line) + 1
	}
	return "", src, false
}

// parseFrontMatter reads the YAML of a page's front matter. A key with a
// value of the wrong type is kept in Extra and reported; YAML that does
// not parse gives no front matter and a warning.
func parseFrontMatter(text string) (frontMatter, []string) {
	var fm frontMatter
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return fm, []string{"front matter ignored: " + yamlMessage(err)}
	}
	if len(doc.Content) == 0 {
		return fm, nil
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return fm, []string{"front matter ignored: not a mapping of keys to values"}
	}
	var warnings []string
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, val := m.Content[i].Value, m.Content[i+1]
		var err error
		switch key {
		case fmDescription:
			err = val.Decode(&fm.Description)
		case fmIcon:
			err = val.Decode(&fm.Icon)
		case fmEmoji:
			err = val.Decode(&fm.Emoji)
		case fmHidden:
			err = val.Decode(&fm.Hidden)
		case fmNoIndex:
			err = val.Decode(&fm.NoIndex)
		case fmNoRobotsIndex:
			err = val.Decode(&fm.NoRobotsIndex)
		case fmIf:
			err = val.Decode(&fm.Condition)
		case fmVars:
			err = val.Decode(&fm.Variables)
		case fmCover:
			err = val.Decode(&fm.Cover)
		case fmCoverY:
			err = val.Decode(&fm.CoverY)
			fm.HasCoverY = err == nil
		case fmLayout:
			var raw map[string]any
			if err = val.Decode(&raw); err == nil {
				var rest map[string]any
				fm.Layout, rest = layoutFromYAML(raw)
				if len(rest) > 0 {
					fm.setExtra(key, rest)
				}
			}
		default:
			var v any
			if err = val.Decode(&v); err == nil {
				fm.setExtra(key, v)
			}
		}
		if err != nil {
			warnings = append(warnings, "front matter key "+key+": "+yamlMessage(err))
			var v any
			if val.Decode(&v) == nil {
				fm.setExtra(key, v)
			}
		}
	}
	return fm, warnings
}

func (fm *frontMatter) setExtra(key string, v any) {
	if fm.Extra == nil {
		fm.Extra = map[string]any{}
	}
	fm.Extra[key] = v
}

// Layout keys of the front matter.
const (
	layoutWidth    = "width"
	layoutCover    = "cover"
	layoutVisible  = "visible"
	layoutSize     = "size"
	coverSizeHero  = "hero"
	coverSizeFull  = "full"
	widthDefault   = "default"
	widthWide      = "wide"
	layoutTitle    = "title"
	layoutDesc     = "description"
	layoutTOC      = "tableOfContents"
	layoutOutline  = "outline"
	layoutPaginate = "pagination"
	layoutMetadata = "metadata"
)

// layoutFlag is one of the layout's visibility switches.
type layoutFlag struct {
	key   string
	field func(*quire.PageLayout) *bool
}

func layoutFlags() []layoutFlag {
	return []layoutFlag{
		{layoutTitle, func(l *quire.PageLayout) *bool { return &l.Title }},
		{layoutDesc, func(l *quire.PageLayout) *bool { return &l.Description }},
		{layoutTOC, func(l *quire.PageLayout) *bool { return &l.TableOfContents }},
		{layoutOutline, func(l *quire.PageLayout) *bool { return &l.Outline }},
		{layoutPaginate, func(l *quire.PageLayout) *bool { return &l.Pagination }},
		{layoutMetadata, func(l *quire.PageLayout) *bool { return &l.Metadata }},
	}
}

// layoutFromYAML maps the front matter's layout block onto the default
// layout; what it does not map (other keys, other values) is returned.
func layoutFromYAML(raw map[string]any) (*quire.PageLayout, map[string]any) {
	l := quire.DefaultPageLayout()
	rest := map[string]any{}
	for k, v := range raw {
		rest[k] = v
	}
	if w, ok := rest[layoutWidth].(string); ok && (w == widthDefault || w == widthWide) {
		l.Width = w
		delete(rest, layoutWidth)
	}
	if cover, ok := rest[layoutCover].(map[string]any); ok {
		cover = copyMap(cover)
		if v, ok := cover[layoutVisible].(bool); ok {
			l.Cover = v
			delete(cover, layoutVisible)
		}
		if s, ok := cover[layoutSize].(string); ok && (s == coverSizeHero || s == coverSizeFull) {
			l.CoverSize = s
			delete(cover, layoutSize)
		}
		setOrDelete(rest, layoutCover, cover)
	}
	for _, f := range layoutFlags() {
		sub, ok := rest[f.key].(map[string]any)
		if !ok {
			continue
		}
		sub = copyMap(sub)
		if v, ok := sub[layoutVisible].(bool); ok {
			*f.field(&l) = v
			delete(sub, layoutVisible)
		}
		setOrDelete(rest, f.key, sub)
	}
	return &l, rest
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// setOrDelete stores a non-empty map under key, or removes the key.
func setOrDelete(m map[string]any, key string, v map[string]any) {
	if len(v) == 0 {
		delete(m, key)
	} else {
		m[key] = v
	}
}

// layoutToYAML renders the values of a layout that differ from the
// default, merged into extra (the layout keys kept from the read). It
// returns nil when there is nothing to write.
func layoutToYAML(l *quire.PageLayout, extra map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range extra {
		if m, ok := v.(map[string]any); ok {
			v = copyMap(m)
		}
		out[k] = v
	}
	if l != nil {
		def := quire.DefaultPageLayout()
		if w := orDefault(l.Width, widthDefault); w != def.Width {
			out[layoutWidth] = w
		}
		cover, _ := out[layoutCover].(map[string]any)
		if cover == nil {
			cover = map[string]any{}
		}
		if l.Cover != def.Cover {
			cover[layoutVisible] = l.Cover
		}
		if s := orDefault(l.CoverSize, coverSizeHero); s != def.CoverSize {
			cover[layoutSize] = s
		}
		setOrDelete(out, layoutCover, cover)
		for _, f := range layoutFlags() {
			v := *f.field(l)
			if v == *f.field(&def) {
				continue
			}
			sub, _ := out[f.key].(map[string]any)
			if sub == nil {
				sub = map[string]any{}
			}
			sub[layoutVisible] = v
			out[f.key] = sub
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
