package pdf

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"quire/internal/document"
)

// style is how a run of text is set.
type style struct {
	face   Face
	size   float64
	color  rgb
	strike bool
	// code shades the run's background.
	code bool
	// pre keeps the run's spaces, even at the start of a line.
	pre bool
	// link is the URL the run links to; anchor the book page it jumps to.
	link, anchor string
}

// run is text in one style.
type run struct {
	text string
	st   style
}

// seg is a piece of a unit set in one face.
type seg struct {
	text string
	st   style
	w    float64
}

// unitKind tells words, spaces and forced line breaks apart.
type unitKind int

const (
	unitWord unitKind = iota
	unitSpace
	unitBreak
)

// unit is what lines are made of: a word (segments that must stay on one
// line), a space, or a line break.
type unit struct {
	kind unitKind
	segs []seg
	w    float64
	size float64
}

// plainUnits cuts s, all in one style, into units.
func (r *renderer) plainUnits(s string, st style) []unit {
	return r.units([]run{{text: s, st: st}})
}

// units cuts runs into words, spaces and breaks. Each CJK character is a
// unit of its own, since lines may break between any two of them;
// characters the run's face lacks are set in the CJK face when it has
// them.
func (r *renderer) units(runs []run) []unit {
	var out []unit
	var cur *unit
	closeWord := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	for _, rn := range runs {
		for _, c := range rn.text {
			switch {
			case c == '\n':
				closeWord()
				out = append(out, unit{kind: unitBreak, size: rn.st.size})
			case (c == ' ' || c == '\t') && rn.st.pre:
				closeWord()
				out = append(out, unit{kind: unitWord, segs: []seg{{text: " ", st: rn.st}}, size: rn.st.size})
			case c == ' ' || c == '\t':
				closeWord()
				out = append(out, unit{kind: unitSpace, segs: []seg{{text: " ", st: rn.st}}, size: rn.st.size})
			case !r.settable(c):
				// No face has the character: leave it out rather than
				// show a blank.
			case wide(c):
				closeWord()
				u := unit{kind: unitWord, size: rn.st.size}
				u.segs = []seg{{text: string(c), st: r.faceFor(rn.st, c)}}
				out = append(out, u)
			default:
				if c < ' ' || c == utf8.RuneError {
					continue
				}
				if cur == nil {
					cur = &unit{kind: unitWord}
				}
				cur.size = max(cur.size, rn.st.size)
				st := r.faceFor(rn.st, c)
				if n := len(cur.segs); n > 0 && cur.segs[n-1].st == st {
					cur.segs[n-1].text += string(c)
				} else {
					cur.segs = append(cur.segs, seg{text: string(c), st: st})
				}
			}
		}
	}
	closeWord()
	for i := range out {
		r.measureUnit(&out[i])
	}
	return out
}

// measureUnit sets the widths of a unit and its segments.
func (r *renderer) measureUnit(u *unit) {
	u.w = 0
	for j := range u.segs {
		s := &u.segs[j]
		r.setFont(s.st.face, s.st.size)
		s.w = r.measure(s.text)
		u.w += s.w
	}
}

// faceFor returns st with the face that has a glyph for c: its own, or
// else a CJK face.
func (r *renderer) faceFor(st style, c rune) style {
	if r.fonts.has(st.face, c) {
		return st
	}
	for _, f := range []Face{FaceCJK, FaceHangul} {
		if r.fonts.has(f, c) {
			st.face = f
			return st
		}
	}
	return st
}

// settable reports whether a face has a glyph for c.
func (r *renderer) settable(c rune) bool {
	for f := range faceCount {
		if r.fonts.has(f, c) {
			return true
		}
	}
	return false
}

// wide reports whether c is a CJK character, between which lines may
// break.
func wide(c rune) bool {
	return unicode.In(c, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) ||
		(c >= 0x3000 && c <= 0x303f) || (c >= 0xff00 && c <= 0xffef)
}

// layout breaks units into lines no wider than maxW. A word wider than
// a line is cut between characters.
func (r *renderer) layout(units []unit, maxW float64) [][]unit {
	var lines [][]unit
	var line []unit
	var lineW float64
	var pending []unit
	var pendingW float64
	flush := func() {
		lines = append(lines, line)
		line, lineW, pending, pendingW = nil, 0, nil, 0
	}
	for _, u := range units {
		switch u.kind {
		case unitBreak:
			if len(line) == 0 {
				line = append(line, u)
			}
			flush()
			continue
		case unitSpace:
			if len(line) > 0 {
				pending = append(pending, u)
				pendingW += u.w
			}
			continue
		}
		if len(line) > 0 && lineW+pendingW+u.w > maxW {
			flush()
		}
		for u.w > maxW && len(line) == 0 {
			head, tail, ok := r.cut(u, maxW)
			if !ok {
				break
			}
			lines = append(lines, []unit{head})
			u = tail
		}
		line = append(line, pending...)
		lineW += pendingW
		pending, pendingW = nil, 0
		line = append(line, u)
		lineW += u.w
	}
	if len(line) > 0 {
		flush()
	}
	return lines
}

// cut splits a word so that its head fits maxW (at least one character).
func (r *renderer) cut(u unit, maxW float64) (unit, unit, bool) {
	head := unit{kind: unitWord, size: u.size}
	var w float64
	for i, s := range u.segs {
		r.setFont(s.st.face, s.st.size)
		var b strings.Builder
		for k, c := range s.text {
			cw := r.measure(string(c))
			if w+cw > maxW && (w > 0 || b.Len() > 0) {
				if b.Len() > 0 {
					head.segs = append(head.segs, seg{text: b.String(), st: s.st})
				}
				tail := unit{kind: unitWord, size: u.size}
				if rest := s.text[k:]; rest != "" {
					tail.segs = append(tail.segs, seg{text: rest, st: s.st})
				}
				tail.segs = append(tail.segs, u.segs[i+1:]...)
				r.measureUnit(&head)
				r.measureUnit(&tail)
				return head, tail, len(tail.segs) > 0
			}
			b.WriteRune(c)
			w += cw
		}
		head.segs = append(head.segs, seg{text: b.String(), st: s.st})
	}
	return u, unit{}, false
}

// lineHeight is the height of a line of units.
func lineHeight(line []unit) float64 {
	size := 0.0
	for _, u := range line {
		size = max(size, u.size)
	}
	if size == 0 {
		size = bodySize
	}
	return size * lineFactor
}

// textTop is where text of a size is set in a line of height h whose
// top is at y.
func textTop(y, h, size float64) float64 {
	return y + (h-size*lineFactor)/2 + size*0.2
}

// drawLine sets a line with its top at y, starting at x, with shading,
// strike-through and links, one link area for each run of text linking
// to the same place.
func (r *renderer) drawLine(line []unit, x, y, h float64) {
	var area linkArea
	for _, u := range line {
		for _, s := range u.segs {
			top := textTop(y, h, s.st.size)
			if s.st.code && u.kind == unitWord {
				r.rect(x-0.5, top-1.5, s.w+1, s.st.size+3.5, colorShade)
			}
			if u.kind == unitWord {
				r.setFont(s.st.face, s.st.size)
				r.color(s.st.color)
				r.cell(x, top, s.text)
			}
			if s.st.strike {
				r.stroke(s.st.color)
				r.gp.SetLineWidth(0.6)
				r.gp.Line(x, top+s.st.size*0.55, x+s.w, top+s.st.size*0.55)
			}
			if s.st.link != "" {
				r.stroke(colorLink)
				r.gp.SetLineWidth(0.5)
				r.gp.Line(x, top+s.st.size*1.08, x+s.w, top+s.st.size*1.08)
			}
			if s.st.link != area.link || s.st.anchor != area.anchor {
				r.addLink(area)
				area = linkArea{link: s.st.link, anchor: s.st.anchor, x: x, y: top, h: s.st.size * 1.2}
			}
			area.w = x + s.w - area.x
			area.h = max(area.h, s.st.size*1.2)
			x += s.w
		}
	}
	r.addLink(area)
}

// linkArea is where a link is on a line.
type linkArea struct {
	link, anchor string
	x, y, w, h   float64
}

// addLink makes a link area clickable, if it links anywhere.
func (r *renderer) addLink(a linkArea) {
	switch {
	case a.link != "":
		r.gp.AddExternalLink(a.link, a.x, a.y, a.w, a.h)
	case a.anchor != "":
		r.gp.AddInternalLink(a.anchor, a.x, a.y, a.w, a.h)
	}
}

// paragraph sets units as lines in the current column, indented by
// first on the first line, starting new pages as needed.
func (r *renderer) paragraph(units []unit, first float64) {
	lines := r.layout(units, r.width)
	for _, l := range lines {
		h := lineHeight(l)
		r.ensure(h)
		r.drawLine(l, r.left+first, r.y, h)
		first = 0
		r.y += h
	}
}

// inlineRuns flattens a text block's inlines into runs in base style.
func (r *renderer) inlineRuns(nodes []document.Node, base style) []run {
	var out []run
	for _, n := range nodes {
		switch n.Object {
		case document.ObjectText:
			for _, l := range n.Leaves {
				out = append(out, run{text: l.Text, st: markStyle(base, l.Marks)})
			}
		case document.ObjectInline:
			out = append(out, r.inlineNode(n, base)...)
		case document.ObjectBlock:
			out = append(out, r.inlineRuns(n.Nodes, base)...)
			out = append(out, run{text: "\n", st: base})
		}
	}
	return out
}

// inlineNode returns the runs of one inline.
func (r *renderer) inlineNode(n document.Node, base style) []run {
	text := func(key string) string { s, _ := n.Data[key].(string); return s }
	switch n.Type {
	case document.InlineLink:
		return r.inlineRuns(n.Nodes, r.linkStyle(base, n.Data["ref"]))
	case document.InlineEmoji:
		return []run{{text: document.EmojiFromCode(text("code")), st: base}}
	case document.InlineMath:
		st := base
		st.face, st.code, st.color = FaceMono, true, colorCode
		return []run{{text: text("formula"), st: st}}
	case document.InlineButton:
		return []run{{text: "[" + text("label") + "]", st: r.linkStyle(base, n.Data["ref"])}}
	case document.InlineMention:
		ref, ok := refOf(n.Data["ref"])
		switch {
		case ok && ref.Kind == document.RefPage && r.inBook[ref.Page] != "":
			return []run{{text: r.inBook[ref.Page], st: r.linkStyle(base, n.Data["ref"])}}
		case ok && ref.Kind == document.RefURL && ref.URL != "":
			return []run{{text: ref.URL, st: r.linkStyle(base, n.Data["ref"])}}
		}
		return r.inlineRuns(n.Nodes, base)
	case document.InlineExpression:
		return []run{{text: text("expression"), st: base}}
	case document.InlineImage:
		if alt := text("alt"); alt != "" {
			return []run{{text: "[" + alt + "]", st: base}}
		}
		return nil
	}
	return r.inlineRuns(n.Nodes, base)
}

// linkStyle returns base linking to a content reference: a web address,
// or a page of the book.
func (r *renderer) linkStyle(base style, v any) style {
	st := base
	if ref, ok := refOf(v); ok {
		switch {
		case ref.Kind == document.RefURL && safeURL(ref.URL):
			st.link, st.color = ref.URL, colorLink
		case ref.Kind == document.RefPage && r.inBook[ref.Page] != "":
			st.anchor, st.color = ref.Page, colorLink
		}
	}
	return st
}

// markStyle applies a leaf's marks to base.
func markStyle(base style, marks []document.Mark) style {
	st := base
	bold, italic := st.face == FaceBold || st.face == FaceBoldItalic, st.face == FaceItalic || st.face == FaceBoldItalic
	for _, m := range marks {
		switch m.Type {
		case document.MarkBold:
			bold = true
		case document.MarkItalic:
			italic = true
		case document.MarkCode, document.MarkKeyboard:
			st.code = true
			if st.link == "" && st.anchor == "" {
				st.color = colorCode
			}
		case document.MarkStrikethrough:
			st.strike = true
		}
	}
	switch {
	case st.code:
		st.face = FaceMono
		st.size = base.size * 0.92
	case bold && italic:
		st.face = FaceBoldItalic
	case bold:
		st.face = FaceBold
	case italic:
		st.face = FaceItalic
	}
	return st
}

// safeURL reports whether u is a link a reader may follow.
func safeURL(u string) bool {
	l := strings.ToLower(u)
	return strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "mailto:")
}
