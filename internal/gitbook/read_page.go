package gitbook

import (
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
)

// pageFile is a page file split into its parts.
type pageFile struct {
	fm          frontMatter
	frontMatter string // the YAML as read
	title       string // text of the "# " line
	hasTitle    bool
	body        string
}

// pageFile parses the page file at path once; nil when it is missing.
func (r *reader) pageFile(path string) *pageFile {
	if pf, ok := r.pageFiles[path]; ok {
		return pf
	}
	data, ok := r.content[path]
	if !ok {
		r.pageFiles[path] = nil
		return nil
	}
	pf := &pageFile{}
	text := normalizeNewlines(string(data))
	yamlText, body, found := splitFrontMatter(text)
	if found {
		var warnings []string
		pf.fm, warnings = parseFrontMatter(yamlText)
		for _, w := range warnings {
			r.warn(path, "%s", w)
		}
		pf.frontMatter = yamlText
	}
	pf.title, pf.body, pf.hasTitle = splitTitle(body)
	r.pageFiles[path] = pf
	return pf
}

// documentPage makes the page of the file at path; title is the title
// the table of contents gives it, if any.
func (r *reader) documentPage(path, title string) *Page {
	p := &Page{ID: r.pageID(path), Kind: quire.PageDocument, Path: path}
	pf := r.pageFile(path)
	if pf == nil {
		pf = &pageFile{}
	}
	emoji := ""
	switch {
	case title != "":
		emoji, title = splitEmoji(title)
		if emoji == "" && pf.hasTitle {
			emoji, _ = splitEmoji(pf.title)
		}
	case pf.hasTitle && pf.title != "":
		emoji, title = splitEmoji(pf.title)
	default:
		title = humanize(stemOf(path))
	}
	if emoji == "" {
		emoji = emojiFromFrontMatter(pf.fm.Emoji)
	}
	p.Title, p.Emoji = title, emoji
	p.Slug = pathSlug(path, title)
	if path == r.readme {
		// The landing page is served at the root; its slug is its title's.
		p.Slug = content.Slugify(title)
	}
	fm := pf.fm
	p.Description, p.Icon, p.Hidden = fm.Description, fm.Icon, fm.Hidden
	p.NoIndex, p.NoRobotsIndex, p.Condition = fm.NoIndex, fm.NoRobotsIndex, fm.Condition
	p.Variables, p.Layout, p.Extra = fm.Variables, fm.Layout, fm.Extra
	p.FrontMatter = pf.frontMatter
	if fm.Cover != "" || fm.HasCoverY {
		p.Cover = &quire.PageCover{YPos: fm.CoverY}
		if fm.Cover != "" {
			p.Cover.Ref = r.coverRef(path, fm.Cover)
		}
	}
	r.pageByPath[path] = p
	r.docPages = append(r.docPages, p)
	return p
}

// coverRef resolves the front matter's cover: a URL, or a file relative
// to the page file. What resolves to nothing stays as written, as a URL.
func (r *reader) coverRef(page, target string) *quire.ContentRef {
	if document.HasScheme(target) {
		return &quire.ContentRef{Kind: document.RefURL, URL: target}
	}
	p, _, _ := splitTarget(target)
	path, exists, ok := r.resolve(dirOf(page), p)
	if ok && exists && !r.isPageFile(path) && path != r.summary {
		return &quire.ContentRef{Kind: document.RefFile, File: r.file(path).ID}
	}
	if target != brokenReference {
		r.warn(page, "cover %q is not a file of the repository", target)
	}
	return &quire.ContentRef{Kind: document.RefURL, URL: target}
}
