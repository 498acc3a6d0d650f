package app

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"quire/internal/quire"
)

// customizeGroups draws the whole customization form for settings c:
// the fixed controls by section, and the rows of every list with empty
// rows to add more.
func customizeGroups(c settings, siteTitle string) []customizeGroup {
	c = expandSettings(c)
	var out []customizeGroup
	for _, sec := range customizeSections(siteTitle) {
		g := customizeGroup{Legend: sec.legend, Help: sec.help, Fold: sec.fold}
		for _, sp := range sec.specs {
			g.Fields = append(g.Fields, sp.field(&c))
		}
		switch sec.rows {
		case "fonts":
			g.Fields = append(g.Fields,
				fontChoice("styling.font", "Text font", reflect.TypeFor[quire.CustomizationFont](), c.Styling.Font.Name, c.Styling.Font.Custom),
				fontChoice("styling.monospaceFont", "Code font", reflect.TypeFor[quire.CustomizationMonospaceFont](), c.Styling.MonospaceFont.Name, c.Styling.MonospaceFont.Custom))
			g.Groups = append(g.Groups,
				customFontGroup("styling.font", "Text font of the site’s own", c.Styling.Font.Custom),
				customFontGroup("styling.monospaceFont", "Code font of the site’s own", c.Styling.MonospaceFont.Custom))
		case "header":
			g.Groups = headerRows(c.Header.Links)
		case "footer":
			g.Groups = footerRows(c.Footer.Groups)
		case "announcement":
			l := c.Announcement.Link
			g.Fields = append(g.Fields, linkFields("announcement.link", "Announcement link", "Text", l.Title, 64, l.To, false)...)
		}
		out = append(out, g)
	}
	return out
}

// field draws the control of a spec with the value c holds.
func (sp customizeSpec) field(c *settings) customizeField {
	f := customizeField{Name: sp.name, Label: sp.label, Where: sp.label, Help: sp.help, Kind: sp.kind, Options: sp.options, Max: sp.max}
	if sp.flag != nil {
		f.On = *sp.flag(c)
	} else {
		f.Value = *sp.text(c)
	}
	return f
}

// rowField is a control of a row: where names it with the row's legend.
func rowField(name, label, legend, kind, value string, max int) customizeField {
	return customizeField{Name: name, Label: label, Where: legend + " " + strings.ToLower(label[:1]) + label[1:], Kind: kind, Value: value, Max: max}
}

// linkFields are the controls of a titled link: its text, the kind of
// content it leads to and the target. A header item may lead nowhere
// (menu), offered as an empty kind.
func linkFields(name, legend, titleLabel, title string, titleMax int, to quire.ContentRef, menu bool) []customizeField {
	kinds := targetKinds()
	help := "A URL, or the id of what it leads to; a page’s anchor after #, as in id#anchor."
	if menu {
		kinds = append([]customizeOption{{"", "Nothing (a menu)"}}, kinds...)
		help += " Empty: a menu of the links below."
	}
	kind := to.Kind
	if kind == "" && !menu {
		kind = quire.RefURL
	}
	target := rowField(name+".to", "Target", legend, "text", targetText(to), maxCustomURL)
	target.Help = help
	kindField := rowField(name+".to.kind", "Leads to", legend, "select", kind, 0)
	kindField.Options = kinds
	return []customizeField{rowField(name+".title", titleLabel, legend, "text", title, titleMax), kindField, target}
}

// headerRows are the rows of the header's links, each with the rows of
// its menu, and empty rows after them.
func headerRows(items []quire.CustomizationHeaderItem) []customizeGroup {
	var out []customizeGroup
	styles := append([]customizeOption{{"", "The theme’s"}}, enumOptions(reflect.TypeFor[quire.CustomizationHeaderItem](), "Style")...)
	for i := range len(items) + newHeaderLinks {
		var it quire.CustomizationHeaderItem
		if i < len(items) {
			it = items[i]
		}
		name, legend := fmt.Sprintf("header.links[%d]", i), fmt.Sprintf("Header link %d", i+1)
		to := quire.ContentRef{Kind: quire.RefURL}
		if it.To != nil {
			to = it.To.ContentRef
		} else if i < len(items) {
			to = quire.ContentRef{}
		}
		style := rowField(name+".style", "Style", legend, "select", it.Style, 0)
		style.Options = styles
		cond := rowField(name+".condition", "Condition", legend, "text", it.Condition, 1024)
		cond.Help = "Shown to the visitors this adaptive content condition holds for. Empty: to every visitor."
		g := customizeGroup{Name: name, Legend: legend}
		if i >= len(items) {
			g.Fold, g.Summary = true, "Add a header link"
		}
		g.Fields = append(linkFields(name, legend, "Title", it.Title, 0, to, true), style, cond)
		g.Groups = linkRows(name, "Menu link", "header link "+strconv.Itoa(i+1), "Add a link to its menu", it.Links, newMenuLinks)
		out = append(out, g)
	}
	return out
}

// footerRows are the rows of the footer's groups of links, and empty
// rows after them.
func footerRows(groups []quire.CustomizationFooterGroup) []customizeGroup {
	var out []customizeGroup
	for i := range len(groups) + newFooterGroups {
		var fg quire.CustomizationFooterGroup
		if i < len(groups) {
			fg = groups[i]
		}
		name, legend := fmt.Sprintf("footer.groups[%d]", i), fmt.Sprintf("Footer group %d", i+1)
		g := customizeGroup{Name: name, Legend: legend, Fold: i >= len(groups), Summary: "Add a footer group",
			Fields: []customizeField{rowField(name+".title", "Title", legend, "text", fg.Title, 0)}}
		g.Groups = linkRows(name, "Link", "footer group "+strconv.Itoa(i+1), "Add a link to the group", fg.Links, newFooterLinks)
		out = append(out, g)
	}
	return out
}

// linkRows are the rows of the links under a header link's menu or a
// footer group (name, the row holding them, called of in legends), and
// empty rows after them, folded under summary. Each row is named
// name.links[j] and its legend reads "noun j of of".
func linkRows(name, noun, of, summary string, links []quire.CustomizationContentLink, empty int) []customizeGroup {
	var out []customizeGroup
	for j := range len(links) + empty {
		var l quire.CustomizationContentLink
		if j < len(links) {
			l = links[j]
		}
		lname, llegend := fmt.Sprintf("%s.links[%d]", name, j), fmt.Sprintf("%s %d of %s", noun, j+1, of)
		out = append(out, customizeGroup{Name: lname, Legend: llegend, Fold: j >= len(links), Summary: summary,
			Fields: linkFields(lname, llegend, "Title", l.Title, 64, l.To, false)})
	}
	return out
}

// fontChoice is a font's select: the fonts the platform provides, and a
// font of the site's own, described in its own group.
func fontChoice(name, label string, t reflect.Type, chosen string, custom *quire.CustomizationFontDefinitionInput) customizeField {
	f := customizeField{Name: name, Label: label, Where: label, Kind: "select", Value: chosen}
	for _, o := range enumOptions(t, "Name") {
		f.Options = append(f.Options, customizeOption{Value: o.Value, Label: o.Value})
	}
	f.Options = append(f.Options, customizeOption{Value: customFontChoice, Label: "A font of the site’s own"})
	if custom != nil {
		f.Value = customFontChoice
	}
	return f
}

// customFontGroup draws a font of the site's own: its family, and its
// faces each with its files; folded while the site has none.
func customFontGroup(name, legend string, def *quire.CustomizationFontDefinitionInput) customizeGroup {
	var d quire.CustomizationFontDefinitionInput
	if def != nil {
		d = *def
	}
	g := customizeGroup{Name: name, Legend: legend, Fold: def == nil,
		Help: "Used when the font chosen above is a font of the site’s own."}
	family := rowField(name+".fontFamily", "Font family", legend, "text", d.FontFamily, 50)
	family.Help = "The CSS font-family name."
	custom := rowField(name+".custom", "Not one the platform provides", legend, "check", "", 0)
	custom.On = d.Custom
	g.Fields = []customizeField{family, rowField(name+".id", "Id", legend, "text", d.ID, 0), custom}
	for i := range len(d.FontFaces) + newFontFaces {
		var face quire.CustomizationFontFace
		if i < len(d.FontFaces) {
			face = d.FontFaces[i]
		}
		fname, flegend := fmt.Sprintf("%s.fontFaces[%d]", name, i), fmt.Sprintf("Face %d of the %s", i+1, strings.ToLower(legend[:1])+legend[1:])
		weight := rowField(fname+".weight", "Weight", flegend, "number", "", 0)
		if face.Weight != 0 {
			weight.Value = fmt.Sprint(face.Weight)
		}
		weight.Help = "1 to 1000: 400 is regular, 700 bold."
		fg := customizeGroup{Name: fname, Legend: flegend, Fold: i >= len(d.FontFaces), Summary: "Add a face", Fields: []customizeField{weight}}
		for j := range len(face.Sources) + newFontSources {
			var src quire.CustomizationFontSource
			if j < len(face.Sources) {
				src = face.Sources[j]
			}
			sname, slegend := fmt.Sprintf("%s.sources[%d]", fname, j), fmt.Sprintf("File %d of face %d", j+1, i+1)
			format := rowField(sname+".format", "Format", slegend, "select", src.Format, 0)
			format.Options = append([]customizeOption{{"", "Not given"}}, enumOptions(reflect.TypeFor[quire.CustomizationFontSource](), "Format")...)
			fg.Groups = append(fg.Groups, customizeGroup{Name: sname, Legend: slegend, Fold: j >= len(face.Sources), Summary: "Add a file", Fields: []customizeField{
				rowField(sname+".url", "URL", slegend, "url", src.URL, maxCustomURL), format}})
		}
		g.Groups = append(g.Groups, fg)
	}
	return g
}
