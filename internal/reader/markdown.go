package reader

import (
	"context"
	"strings"

	"quire/internal/document"
)

// PageMarkdown returns the page as Markdown (for <path>.md and llms.txt
// readers): its title, its description as a quote, and its document in
// GitBook Markdown with references resolved by the page's resolvers.
func PageMarkdown(ctx context.Context, p *Page) (string, error) {
	body, err := document.ToMarkdown(p.Document, document.WithContext(ctx),
		document.WithLinkResolver(markdownLinks{&p.Resolvers}))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("# ")
	b.WriteString(oneLine(p.Title))
	b.WriteString("\n\n")
	if d := oneLine(p.Description); d != "" {
		b.WriteString("> ")
		b.WriteString(d)
		b.WriteString("\n\n")
	}
	b.WriteString(body)
	return b.String(), nil
}

// oneLine joins the lines of s with spaces.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// markdownLinks writes references as the addresses the reader serves.
type markdownLinks struct{ res *Resolvers }

// RefForTarget is not used when writing Markdown.
func (markdownLinks) RefForTarget(string, document.TargetUse) (document.Ref, bool) {
	return document.Ref{}, false
}

// TargetForRef resolves a reference with the page's resolvers; a
// reference they leave unresolved keeps the default form, except an
// unsafe URL, which is dropped.
func (m markdownLinks) TargetForRef(ref document.Ref, use document.TargetUse) (string, bool) {
	var u string
	switch use {
	case document.UseImage:
		u = m.res.image(ref)
	case document.UseFile:
		u = m.res.file(ref).URL
	default:
		u = m.res.link(ref).URL
	}
	u = SafeURL(u)
	return u, u != "" || ref.Kind == document.RefURL
}

// LLMsTxt returns an llms.txt index of a site (https://llmstxt.org): its
// title, an optional summary, and a list of its pages, each linking to
// its Markdown form.
func LLMsTxt(title, summary string, pages []Link) string {
	var b strings.Builder
	b.WriteString("# ")
	b.WriteString(oneLine(title))
	b.WriteString("\n\n")
	if s := oneLine(summary); s != "" {
		b.WriteString("> ")
		b.WriteString(s)
		b.WriteString("\n\n")
	}
	if len(pages) > 0 {
		b.WriteString("## Pages\n\n")
		for _, p := range pages {
			b.WriteString("- [")
			b.WriteString(strings.NewReplacer("[", `\[`, "]", `\]`).Replace(oneLine(p.Title)))
			b.WriteString("](")
			b.WriteString(strings.NewReplacer("(", "%28", ")", "%29", " ", "%20").Replace(SafeURL(p.URL)))
			b.WriteString(")\n")
		}
	}
	return b.String()
}
