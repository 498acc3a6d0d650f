package importer

import (
	"bytes"
	"context"
	"net/url"
	"path"
	"strings"
	"unicode/utf8"

	"quire/internal/quire"
)

// markdownFile imports the Markdown file at u as the one page README.md:
// its images are fetched into assets, its other relative links made
// absolute, and a title taken from the file name when it has no H1.
func (r *run) markdownFile(ctx context.Context, u *url.URL) error {
	r.total++
	d, err := r.get(ctx, u, nil)
	if err != nil {
		return r.urlError(ctx, u, err)
	}
	return r.markdownPage(ctx, d.body, u, redact(u), titleFromURL(u))
}

// markdownPage writes the Markdown text of body as the one page
// README.md, titled title when it has no H1. Its links resolve against
// base: a nil base (an uploaded file) leaves relative links as written.
// Images at http(s) addresses are fetched into assets. shown names the
// file in errors.
func (r *run) markdownPage(ctx context.Context, body []byte, base *url.URL, shown, title string) error {
	text, err := r.textBody(body, shown)
	if err != nil {
		return err
	}
	text = newLinkRewriter().rewrite(text, func(dest string, image bool) (string, bool) {
		t, ok := resolveRef(base, dest)
		if !ok {
			return "", false
		}
		if image {
			if p, ok := r.image(ctx, t); ok {
				return relPath(ReadmePath, p), true
			}
		}
		return t.String(), true
	})
	r.files[ReadmePath] = []byte(withTitle(text, title))
	r.imported++
	return nil
}

// htmlFile imports the HTML file at u as the one page README.md, its
// images fetched into assets and its links made absolute.
func (r *run) htmlFile(ctx context.Context, u *url.URL) error {
	r.total++
	d, err := r.get(ctx, u, nil)
	if err != nil {
		return r.urlError(ctx, u, err)
	}
	return r.htmlPage(ctx, d.body, u, "", redact(u), titleFromURL(u))
}

// htmlPage converts the HTML page body, read from base, into the one
// page README.md, titled by its own H1 or title, else title. Images at
// http(s) addresses are fetched into assets; references to local's host
// (an uploaded file's stand-in address) are kept as written, all others
// made absolute. shown names the file in errors.
func (r *run) htmlPage(ctx context.Context, body []byte, base *url.URL, local, shown, title string) error {
	if _, err := r.textBody(body, shown); err != nil {
		return err
	}
	p, err := parseHTML(body, base)
	if err != nil {
		return quire.Invalid(r.field, "%s is not an HTML page", shown)
	}
	if p.title != "" {
		title = p.title
	}
	md, err := p.toMarkdown(ctx, refs{
		self: ReadmePath,
		page: func(*url.URL) (string, bool) { return "", false },
		image: func(iu *url.URL) (string, bool) {
			if local != "" && iu.Host == local {
				return "", false
			}
			return r.image(ctx, iu)
		},
		local:  local,
		inline: r.inlineImage,
	}, title)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return quire.Invalid(r.field, "%s could not be converted to Markdown", shown)
	}
	r.files[ReadmePath] = md
	r.imported++
	return nil
}

// textBody is body as text, its byte order mark dropped; a body that is not
// UTF-8 text is refused, naming the file as shown.
func (r *run) textBody(body []byte, shown string) (string, error) {
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(body) || bytes.IndexByte(body, 0) >= 0 {
		return "", quire.Invalid(r.field, "%s is not a UTF-8 text file", shown)
	}
	return string(body), nil
}

// resolveRef resolves a link destination written in a file fetched from
// base (nil for an uploaded file, where only absolute destinations
// resolve); same-document anchors and other schemes than http(s) are
// left.
func resolveRef(base *url.URL, dest string) (*url.URL, bool) {
	dest = strings.TrimSpace(dest)
	if dest == "" || strings.HasPrefix(dest, "#") {
		return nil, false
	}
	ref, err := url.Parse(dest)
	if err != nil {
		return nil, false
	}
	t := ref
	if base != nil {
		t = base.ResolveReference(ref)
	}
	if t.Scheme != "http" && t.Scheme != "https" || base == nil && t.Host == "" {
		return nil, false
	}
	return t, true
}

// titleFromURL is the name of the file at u without its extension, or the
// host.
func titleFromURL(u *url.URL) string {
	name := path.Base(u.Path)
	name = strings.TrimSuffix(name, path.Ext(name))
	if name == "" || name == "." || name == "/" {
		return u.Hostname()
	}
	return name
}

// withTitle is Markdown text given a "# title" line when its first block
// (after any front matter) is not a level-one heading.
func withTitle(text, title string) string {
	front, rest := splitFrontMatter(text)
	first := strings.TrimLeft(rest, " \t\r\n")
	if strings.HasPrefix(first, "# ") || strings.HasPrefix(first, "#\t") {
		return text
	}
	return front + "# " + title + "\n\n" + strings.TrimLeft(rest, "\r\n")
}

// splitFrontMatter splits a leading YAML front matter block from text.
func splitFrontMatter(text string) (front, rest string) {
	if !strings.HasPrefix(text, "---\n") && !strings.HasPrefix(text, "---\r\n") {
		return "", text
	}
	i := strings.Index(text, "\n") + 1
	for i < len(text) {
		j := strings.Index(text[i:], "\n")
		line := text[i:]
		if j >= 0 {
			line = text[i : i+j+1]
		}
		if strings.TrimRight(line, "\r\n") == "---" {
			return text[:i+len(line)], text[i+len(line):]
		}
		if j < 0 {
			break
		}
		i += j + 1
	}
	return "", text
}
