package app

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"quire/internal/quire"
)

// customizeReader reads the customization form into settings. It reads
// every control even past a refusal, so that the form is drawn again as
// typed, and keeps the first refusal.
type customizeReader struct {
	form url.Values
	// rows holds, for each list of the form ("header.links",
	// "header.links[0].links"), the indexes of its rows that were sent.
	rows map[string][]int
	err  error
	// typed keeps what was typed into controls whose value the settings
	// cannot hold (a weight that is no number), by name.
	typed map[string]string
}

// readCustomization reads a posted customization form. The rows of a
// list are renumbered from 0 as read, leaving out those left empty, so
// the names refusals give are those of the form drawn from the result.
func readCustomization(form url.Values) (settings, map[string]string, error) {
	r := &customizeReader{form: form, rows: formRows(form), typed: map[string]string{}}
	c := expandSettings(settings{})
	for _, sec := range customizeSections("") {
		for _, sp := range sec.specs {
			switch {
			case sp.flag != nil:
				*sp.flag(&c) = form.Get(sp.name) != ""
			case sp.kind == "color":
				*sp.text(&c) = formColor(form, sp.name)
			default:
				*sp.text(&c) = r.text(sp.name)
			}
		}
	}
	if choice := r.text("styling.font"); choice == customFontChoice {
		c.Styling.Font = quire.CustomizationFont{Custom: r.fontDefinition("styling.font")}
	} else {
		c.Styling.Font = quire.CustomizationFont{Name: choice}
	}
	if choice := r.text("styling.monospaceFont"); choice == customFontChoice {
		c.Styling.MonospaceFont = quire.CustomizationMonospaceFont{Custom: r.fontDefinition("styling.monospaceFont")}
	} else {
		c.Styling.MonospaceFont = quire.CustomizationMonospaceFont{Name: choice}
	}
	c.Header.Links = r.headerItems()
	c.Footer.Groups = r.footerGroups()
	if title, target := r.text("announcement.link.title"), r.text("announcement.link.to"); title != "" || target != "" {
		c.Announcement.Link = &quire.CustomizationContentLink{Title: title, To: r.target("announcement.link", r.text("announcement.link.to.kind"), target)}
	} else {
		c.Announcement.Link = nil
	}
	collapseSettings(&c)
	c.Normalize()
	return c, r.typed, r.err
}

// formRows finds the rows of every list in the form's names: each
// "<list>[<n>]." in a name is a row n of the list.
func formRows(form url.Values) map[string][]int {
	out := map[string][]int{}
	for name := range form {
		for i := 0; i < len(name); i++ {
			if name[i] != '[' {
				continue
			}
			end := strings.IndexByte(name[i:], ']')
			if end < 2 || end > 5 || i+end+1 >= len(name) || name[i+end+1] != '.' {
				break
			}
			digits := name[i+1 : i+end]
			n, err := strconv.Atoi(digits)
			if err != nil || strconv.Itoa(n) != digits {
				break
			}
			list := name[:i]
			if !slices.Contains(out[list], n) {
				out[list] = append(out[list], n)
			}
			i += end
		}
	}
	for _, rows := range out {
		slices.Sort(rows)
	}
	return out
}

// fail keeps the first refusal.
func (r *customizeReader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// text reads a control's text, without the spaces around it.
func (r *customizeReader) text(name string) string { return strings.TrimSpace(r.form.Get(name)) }

// target reads the target of the link at path: a content reference of
// kind. A kind the form does not offer is refused, and so is a URL that
// is none.
func (r *customizeReader) target(path, kind, text string) quire.ContentRef {
	if !slices.ContainsFunc(targetKinds(), func(o customizeOption) bool { return o.Value == kind }) {
		r.fail(quire.Invalid(path+".to.kind", "must be one of the listed kinds"))
		r.typed[path+".to"] = text
		return quire.ContentRef{Kind: kind}
	}
	if kind == quire.RefURL {
		if msg := urlProblem(text, maxCustomURL); msg != "" {
			r.fail(quire.Invalid(path+".to", "%s", msg))
		}
	}
	return targetRef(kind, text)
}

// headerItems reads the rows of the header's links.
func (r *customizeReader) headerItems() []quire.CustomizationHeaderItem {
	items := []quire.CustomizationHeaderItem{}
	for _, i := range r.rows["header.links"] {
		in, out := fmt.Sprintf("header.links[%d]", i), fmt.Sprintf("header.links[%d]", len(items))
		it := quire.CustomizationHeaderItem{Title: r.text(in + ".title"), Style: r.text(in + ".style"), Condition: r.text(in + ".condition")}
		kind, target := r.text(in+".to.kind"), r.text(in+".to")
		it.Links = r.contentLinks(in+".links", out+".links")
		if it.Title == "" && target == "" && it.Condition == "" && len(it.Links) == 0 {
			continue
		}
		if target != "" {
			it.To = &quire.CustomizationHeaderTarget{ContentRef: r.target(out, kind, target)}
		}
		items = append(items, it)
	}
	return items
}

// footerGroups reads the rows of the footer's groups.
func (r *customizeReader) footerGroups() []quire.CustomizationFooterGroup {
	groups := []quire.CustomizationFooterGroup{}
	for _, i := range r.rows["footer.groups"] {
		in, out := fmt.Sprintf("footer.groups[%d]", i), fmt.Sprintf("footer.groups[%d]", len(groups))
		g := quire.CustomizationFooterGroup{Title: r.text(in + ".title"), Links: r.contentLinks(in+".links", out+".links")}
		if g.Title == "" && len(g.Links) == 0 {
			continue
		}
		groups = append(groups, g)
	}
	return groups
}

// contentLinks reads the rows of a list of links sent as in, to be
// named out in the settings.
func (r *customizeReader) contentLinks(in, out string) []quire.CustomizationContentLink {
	links := []quire.CustomizationContentLink{}
	for _, j := range r.rows[in] {
		pin, pout := fmt.Sprintf("%s[%d]", in, j), fmt.Sprintf("%s[%d]", out, len(links))
		title, target := r.text(pin+".title"), r.text(pin+".to")
		if title == "" && target == "" {
			continue
		}
		links = append(links, quire.CustomizationContentLink{Title: title, To: r.target(pout, r.text(pin+".to.kind"), target)})
	}
	return links
}

// fontDefinition reads a font of the site's own: its family, and its
// faces with their files, leaving out empty rows.
func (r *customizeReader) fontDefinition(name string) *quire.CustomizationFontDefinitionInput {
	d := &quire.CustomizationFontDefinitionInput{ID: r.text(name + ".id"), Custom: r.form.Get(name+".custom") != "",
		FontFamily: r.text(name + ".fontFamily"), FontFaces: []quire.CustomizationFontFace{}}
	for _, i := range r.rows[name+".fontFaces"] {
		in, out := fmt.Sprintf("%s.fontFaces[%d]", name, i), fmt.Sprintf("%s.fontFaces[%d]", name, len(d.FontFaces))
		face := quire.CustomizationFontFace{Sources: []quire.CustomizationFontSource{}}
		for _, j := range r.rows[in+".sources"] {
			src := quire.CustomizationFontSource{URL: r.text(fmt.Sprintf("%s.sources[%d].url", in, j)), Format: r.text(fmt.Sprintf("%s.sources[%d].format", in, j))}
			if src.URL != "" || src.Format != "" {
				face.Sources = append(face.Sources, src)
			}
		}
		weight := r.text(in + ".weight")
		if weight == "" && len(face.Sources) == 0 {
			continue
		}
		if n, err := strconv.Atoi(weight); err == nil {
			face.Weight = n
		} else {
			r.fail(quire.Invalid(out+".weight", "must be a whole number"))
			r.typed[out+".weight"] = weight
		}
		d.FontFaces = append(d.FontFaces, face)
	}
	return d
}

// urlProblem says what is wrong with an address of at most max
// characters, "" when nothing is: it must read as a URL, without
// spaces.
func urlProblem(s string, max int) string {
	if len(s) > max {
		return fmt.Sprintf("must be at most %d characters", max)
	}
	if _, err := url.Parse(s); err != nil || strings.ContainsAny(s, " \t\r\n") {
		return "is not a URL"
	}
	return ""
}
