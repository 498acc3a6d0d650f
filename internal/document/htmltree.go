package document

import "strings"

// htmlElem is an element, text or comment of an HTML fragment, built from
// the tokens of tokenizeHTML. first and last index the element's start
// tag and its end tag (or its last token when it is not closed).
type htmlElem struct {
	tok    htmlToken
	kids   []*htmlElem
	first  int
	last   int
	closed bool
}

// name returns the element's tag name, "" for text and comments.
func (e *htmlElem) name() string { return e.tok.name }

// isBlank reports whether e is text made of white space only.
func (e *htmlElem) isBlank() bool {
	return e.tok.name == "" && !e.tok.comment && strings.TrimSpace(e.tok.text) == ""
}

// isVoidHTML reports whether elements of the named tag have no content.
func isVoidHTML(name string) bool {
	switch name {
	case "img", "br", "hr", "source", "col", "input", "meta", "wbr", "link", "area", "base",
		"embed", "param", "track":
		return true
	}
	return false
}

// htmlTree holds a fragment's tokens and its top-level nodes.
type htmlTree struct {
	toks  []htmlToken
	roots []*htmlElem
}

// parseHTMLTree builds the element tree of an HTML fragment. An end tag
// closes the innermost open element of its name and those opened inside
// it; an end tag that matches none is dropped.
func parseHTMLTree(src string) *htmlTree {
	t := &htmlTree{toks: tokenizeHTML(src)}
	var stack []*htmlElem
	// open counts the open elements of each name, so that an end tag
	// matching none costs no scan of the stack.
	open := map[string]int{}
	add := func(e *htmlElem) {
		if len(stack) == 0 {
			t.roots = append(t.roots, e)
			return
		}
		p := stack[len(stack)-1]
		p.kids = append(p.kids, e)
	}
	for i, tok := range t.toks {
		switch {
		case tok.isTag() && tok.closing:
			if open[tok.name] == 0 {
				continue
			}
			for j := len(stack) - 1; j >= 0; j-- {
				if stack[j].tok.name != tok.name {
					continue
				}
				for k := len(stack) - 1; k >= j; k-- {
					stack[k].last = i
					open[stack[k].tok.name]--
				}
				stack[j].closed = true
				stack = stack[:j]
				break
			}
		case tok.isTag():
			e := &htmlElem{tok: tok, first: i, last: i}
			add(e)
			if !isVoidHTML(tok.name) {
				stack = append(stack, e)
				open[tok.name]++
			}
		default:
			add(&htmlElem{tok: tok, first: i, last: i})
		}
	}
	for _, e := range stack {
		e.last = len(t.toks) - 1
	}
	return t
}

// outer returns the source of e, its tags included.
func (t *htmlTree) outer(e *htmlElem) string {
	var b strings.Builder
	for _, tok := range t.toks[e.first : e.last+1] {
		b.WriteString(tok.src)
	}
	return b.String()
}

// inner returns the source of e's content.
func (t *htmlTree) inner(e *htmlElem) string {
	end := e.last + 1
	if e.closed {
		end = e.last
	}
	var b strings.Builder
	if e.first+1 < end {
		for _, tok := range t.toks[e.first+1 : end] {
			b.WriteString(tok.src)
		}
	}
	return b.String()
}

// text returns the decoded text of e, tags left out.
func (t *htmlTree) text(e *htmlElem) string {
	var b strings.Builder
	for _, tok := range t.toks[e.first : e.last+1] {
		if !tok.isTag() && !tok.comment {
			b.WriteString(tok.text)
		}
	}
	return b.String()
}

// elems returns the element children of e, text and comments left out.
func (e *htmlElem) elems() []*htmlElem {
	var out []*htmlElem
	for _, k := range e.kids {
		if k.tok.isTag() {
			out = append(out, k)
		}
	}
	return out
}

// find returns the first descendant of e, in document order, named name.
func (e *htmlElem) find(name string) *htmlElem {
	for _, k := range e.kids {
		if k.tok.name == name {
			return k
		}
		if f := k.find(name); f != nil {
			return f
		}
	}
	return nil
}
