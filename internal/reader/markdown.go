package reader

import (
	"context"
	"regexp"
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
	body = siteFileRefs(body, &p.Resolvers)
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

// markdownRefs matches the addresses of Markdown that may name files of
// the repository: link and image destinations, and src, srcset and href
// attributes of HTML and Liquid tags.
var markdownRefs = regexp.MustCompile(`(\]\(\s*)([^)\s]+)|\b(src|srcset|href)="([^"]*)"`)

// siteFileRefs rewrites the references to files of the repository that
// are left in a page's Markdown (in raw HTML, or that the document keeps
// by path) to the site's file addresses, so that they resolve from the
// site; fenced code is left as written.
func siteFileRefs(md string, res *Resolvers) string {
	w := &bodyWriter{res: res}
	lines := strings.SplitAfter(md, "\n")
	fence := ""
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			continue
		}
		lines[i] = markdownRefs.ReplaceAllStringFunc(line, func(m string) string {
			s := markdownRefs.FindStringSubmatch(m)
			if s[2] != "" {
				return s[1] + w.resolveMarkdownRef(s[2])
			}
			switch s[3] {
			case "srcset":
				if v, ok := w.resolveSrcset(s[4]); ok {
					return `srcset="` + v + `"`
				}
				return m
			case "src":
				return `src="` + w.resolveHTMLImage(s[4]) + `"`
			}
			return `href="` + w.resolveHTMLFile(s[4]) + `"`
		})
	}
	return strings.Join(lines, "")
}

// resolveMarkdownRef resolves a Markdown destination naming a file of the
// repository (under .gitbook/assets/) to the site's file address.
func (w *bodyWriter) resolveMarkdownRef(u string) string {
	if !strings.Contains(u, ".gitbook/assets/") {
		return u
	}
	return w.resolveHTMLImage(u)
}
