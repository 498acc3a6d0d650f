package document

import (
	"fmt"
	"strconv"
	"strings"
)

// Column types of a table definition.
const (
	columnText       = "text"
	columnContentRef = "content-ref"
	columnFiles      = "files"
	columnImage      = "image"
	columnNumber     = "number"
	columnCheckbox   = "checkbox"
)

// htmlColumn is a column of an HTML table, read from its <th>.
type htmlColumn struct {
	title, typ, align        string
	hidden                   bool
	target, cover, darkCover bool
	width                    any
}

// htmlTable converts a <table> as GitBook writes it: a grid, or with
// data-view="cards" a cards view whose hidden columns hold each card's
// target (data-card-target, a link) and cover (data-card-cover, a file or
// image link). Text cells may hold blocks: paragraphs, lists, code,
// images and nested tables.
func (c *converter) htmlTable(t *htmlTree, table *htmlElem, depth int) Node {
	if depth > maxNesting {
		return rawBlock(t.outer(table))
	}
	var head *htmlElem
	var rows []*htmlElem
	var collect func(e *htmlElem)
	collect = func(e *htmlElem) {
		for _, k := range e.elems() {
			switch k.name() {
			case "thead", "tbody", "tfoot":
				collect(k)
			case "tr":
				if head == nil && len(rows) == 0 && (e.name() == "thead" || allHeaderCells(k)) {
					head = k
					continue
				}
				rows = append(rows, k)
			}
		}
	}
	collect(table)
	var cols []htmlColumn
	if head != nil {
		for _, th := range head.elems() {
			if th.name() == "th" || th.name() == "td" {
				cols = append(cols, readHTMLColumn(t, th))
			}
		}
	}
	rowCells := make([][]*htmlElem, len(rows))
	for i, r := range rows {
		rowCells[i] = cells(r)
		for len(cols) < len(rowCells[i]) {
			cols = append(cols, htmlColumn{typ: columnText})
		}
	}
	// Every cell, short rows padded, becomes at least a fragment holding
	// a paragraph, a text and a leaf: count them before converting.
	if !c.state.spend(4*len(cols)*len(rows), "table cells") {
		return Node{}
	}
	cards := table.tok.attrOr("data-view") == "cards"
	ids := make([]string, len(cols))
	defs := make(map[string]any, len(cols))
	visible := []any{}
	widths := map[string]any{}
	view := map[string]any{}
	for i, col := range cols {
		id := "c" + strconv.Itoa(i+1)
		ids[i] = id
		def := map[string]any{"id": id, "title": col.title, "type": col.typ}
		if col.typ == columnText {
			def["textAlignment"] = col.align
		}
		defs[id] = def
		if !col.hidden {
			visible = append(visible, id)
		}
		if col.width != nil {
			widths[id] = col.width
		}
		switch {
		case col.target:
			view["targetDefinition"] = id
		case col.darkCover:
			view["coverDefinitionDark"] = id
		case col.cover:
			view["coverDefinition"] = id
		}
	}
	view["columns"] = visible
	if cards {
		view["type"] = "cards"
		view["cardSize"] = "medium"
		if table.tok.attrOr("data-card-size") == "large" {
			view["cardSize"] = "large"
		}
	} else {
		view = map[string]any{"type": "grid", "columns": visible}
		_, hidden := table.tok.attr("data-header-hidden")
		view["hideHeader"] = hidden
		if len(widths) > 0 {
			view["columnWidths"] = widths
		}
	}
	data := map[string]any{"view": view, "definition": defs}
	if v, ok := table.tok.attr("data-full-width"); ok {
		data["fullWidth"] = v != "false"
	}
	recs := make(map[string]any, len(rows))
	var frags []Node
	for r := range rows {
		rid := "r" + strconv.Itoa(r+1)
		values := make(map[string]any, len(cols))
		tds := rowCells[r]
		for i, col := range cols {
			var td *htmlElem
			if i < len(tds) {
				td = tds[i]
			}
			if col.typ == columnText {
				name := rid + ids[i]
				values[ids[i]] = name
				var blocks []Node
				if td != nil {
					blocks = c.htmlBlocks(t, td.kids, depth)
				}
				frags = append(frags, Node{Object: ObjectFragment, Fragment: name, Nodes: c.orEmpty(blocks)})
				continue
			}
			if td == nil {
				continue
			}
			if v, ok := c.cellValue(t, td, col.typ); ok {
				values[ids[i]] = v
			}
		}
		recs[rid] = map[string]any{"orderIndex": fmt.Sprintf("a%05d", r), "values": values}
	}
	data["records"] = recs
	return Node{Object: ObjectBlock, Type: TypeTable, Data: data, Fragments: frags}
}

// cells returns the cells of a table row.
func cells(tr *htmlElem) []*htmlElem {
	var out []*htmlElem
	for _, k := range tr.elems() {
		if k.name() == "td" || k.name() == "th" {
			out = append(out, k)
		}
	}
	return out
}

func allHeaderCells(tr *htmlElem) bool {
	cs := cells(tr)
	for _, c := range cs {
		if c.name() != "th" {
			return false
		}
	}
	return len(cs) > 0
}

// readHTMLColumn reads a column from its <th>.
func readHTMLColumn(t *htmlTree, th *htmlElem) htmlColumn {
	col := htmlColumn{title: strings.TrimSpace(t.text(th)), typ: th.tok.attrOr("data-type"), align: "left"}
	switch col.typ {
	case columnContentRef, columnFiles, columnImage, columnNumber, columnCheckbox:
	default:
		col.typ = columnText
	}
	switch a := th.tok.attrOr("align"); a {
	case "center", "right":
		col.align = a
	}
	_, col.hidden = th.tok.attr("data-hidden")
	_, col.target = th.tok.attr("data-card-target")
	_, col.cover = th.tok.attr("data-card-cover")
	_, col.darkCover = th.tok.attr("data-card-cover-dark")
	if w, ok := th.tok.attr("width"); ok {
		if l, ok := parseLength(w); ok {
			if f, isNum := l.(float64); isNum {
				col.width = f
			}
		}
	}
	return col
}

// cellValue reads the value of a cell of a non-text column: a card
// target link, file or image links, a number or a checkbox.
func (c *converter) cellValue(t *htmlTree, td *htmlElem, typ string) (any, bool) {
	var hrefs []string
	var walk func(e *htmlElem)
	walk = func(e *htmlElem) {
		for _, k := range e.kids {
			switch k.name() {
			case "a":
				hrefs = append(hrefs, k.tok.attrOr("href"))
			case "img":
				hrefs = append(hrefs, k.tok.attrOr("src"))
			default:
				walk(k)
			}
		}
	}
	walk(td)
	text := strings.TrimSpace(t.text(td))
	switch typ {
	case columnContentRef:
		if len(hrefs) == 0 {
			return nil, false
		}
		return c.opts.refForTarget(hrefs[0], UseContentRef), true
	case columnImage:
		if len(hrefs) == 0 {
			return nil, false
		}
		return c.opts.refForTarget(hrefs[0], UseImage), true
	case columnFiles:
		files := []any{}
		for _, h := range hrefs {
			r := c.opts.refForTarget(h, UseImage)
			if r.Kind == RefFile {
				files = append(files, r.File)
			} else {
				files = append(files, h)
			}
		}
		return files, true
	case columnNumber:
		f, err := strconv.ParseFloat(text, 64)
		return f, err == nil
	case columnCheckbox:
		return text == "true", text != ""
	}
	return nil, false
}
