package reader

import (
	"strconv"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	lru "github.com/hashicorp/golang-lru/v2"

	"quire/internal/document"
)

// highlighter colors code on the server with chroma: tokens get classes,
// and the stylesheet holds the colors of the light and dark themes.
type highlighter struct {
	plain, numbered *chtml.Formatter
	light, dark     *chroma.Style
	// done keeps recent results: lexing is most of the cost of a page,
	// and the code of published pages changes rarely.
	done *lru.Cache[string, string]
}

// Bounds of the highlighting cache: entries, and the largest source kept.
const (
	highlightCacheEntries = 2048
	highlightCacheMaxSrc  = 32 << 10
)

func newHighlighter() *highlighter {
	done, _ := lru.New[string, string](highlightCacheEntries)
	return &highlighter{
		done:     done,
		plain:    chtml.New(chtml.WithClasses(true), chtml.PreventSurroundingPre(true)),
		numbered: chtml.New(chtml.WithClasses(true), chtml.PreventSurroundingPre(true), chtml.WithLineNumbers(true)),
		light:    styles.Get("github"),
		dark:     styles.Get("github-dark"),
	}
}

// css returns the token colors: the light style, and the dark one under
// [data-theme=dark].
func (h *highlighter) css() string {
	var light, dark strings.Builder
	_ = h.plain.WriteCSS(&light, h.light)
	_ = h.plain.WriteCSS(&dark, h.dark)
	var b strings.Builder
	b.WriteString(light.String())
	// Tokens the dark style leaves alone must not keep light colors.
	b.WriteString("[data-theme=dark] .chroma span{color:inherit;background:none;font-weight:inherit;font-style:inherit}\n")
	for line := range strings.Lines(dark.String()) {
		b.WriteString(strings.ReplaceAll(line, ".chroma", "[data-theme=dark] .chroma"))
	}
	return b.String()
}

// highlight writes src highlighted for the language named syntax, or
// escaped as it is when no lexer knows the language.
func (h *highlighter) highlight(w *bodyWriter, src, syntax string, numbered bool) {
	key := ""
	if len(src) <= highlightCacheMaxSrc {
		key = syntax + "\x00" + strconv.FormatBool(numbered) + "\x00" + src
		if out, ok := h.done.Get(key); ok {
			w.raw(out)
			return
		}
	}
	start := w.b.Len()
	h.format(w, src, syntax, numbered)
	if key != "" {
		h.done.Add(key, w.b.String()[start:])
	}
}

// format writes src highlighted, or escaped when no lexer knows syntax.
func (h *highlighter) format(w *bodyWriter, src, syntax string, numbered bool) {
	lexer := lexers.Get(syntax)
	if lexer == nil || syntax == "" {
		w.text(src)
		return
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, src)
	if err != nil {
		w.text(src)
		return
	}
	f := h.plain
	if numbered {
		f = h.numbered
	}
	if err := f.Format(w.b, h.light, it); err != nil {
		w.text(src)
	}
}

// code writes a code block: its title, a copy button and the highlighted
// lines.
func (w *bodyWriter) code(n *document.Node) {
	var src strings.Builder
	for i := range n.Nodes {
		if i > 0 {
			src.WriteByte('\n')
		}
		writePlain(&src, n.Nodes[i].Nodes)
	}
	syntax := dataString(n, "syntax")
	title := dataString(n, "title")
	class := "code-block"
	if dataString(n, "overflow") == "wrap" {
		class += " wrap"
	}
	w.raw(`<div class="` + class + `"><div class="code-head">`)
	label := firstNonEmpty(title, syntax)
	w.raw(`<span class="code-title">`)
	w.text(label)
	w.raw(`</span><button type="button" class="copy" data-copy aria-label="Copy code`)
	if title != "" {
		w.raw(" ")
		w.text(title)
	}
	w.raw(`">Copy</button></div><pre class="chroma" tabindex="0"><code`)
	if syntax != "" {
		w.attr("data-lang", syntax)
	}
	w.raw(">")
	if w.noCode {
		w.text(src.String())
	} else {
		w.hl.highlight(w, src.String(), syntax, dataBool(n, "lineNumbers"))
	}
	w.raw("</code></pre></div>\n")
}
