package gitbook

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
)

// brokenReference is what GitBook writes for a target it cannot resolve.
const brokenReference = "broken-reference"

// treeFromSummary builds the page tree from SUMMARY.md. A page file
// listed twice is a page where it is first listed without an anchor (or
// first listed at all) and a link to that page elsewhere.
func (r *reader) treeFromSummary(src string) error {
	entries, warnings, err := parseSummary(src, r.contentPath(r.summary))
	if err != nil {
		return err
	}
	r.sp.Warnings = append(r.sp.Warnings, warnings...)
	b := &summaryBuilder{r: r, dir: dirOf(r.summary), chosen: map[string]*tocEntry{}}
	b.choose(entries)
	r.sp.Pages = b.pages(entries)
	return nil
}

// summaryBuilder turns table-of-contents entries into pages.
type summaryBuilder struct {
	r      *reader
	dir    string               // folder of SUMMARY.md, which links are relative to
	chosen map[string]*tocEntry // page file → the entry that is its page
}

// target resolves an entry's link to a page file or other file.
func (b *summaryBuilder) target(e *tocEntry) (path, fragment string, hasFragment, exists, ok bool) {
	p, fragment, hasFragment := splitTarget(e.target)
	if p == "" {
		return "", fragment, hasFragment, false, false
	}
	path, exists, ok = b.r.resolve(b.dir, p)
	return path, fragment, hasFragment, exists, ok
}

// choose picks the entry that is the page of each page file.
func (b *summaryBuilder) choose(entries []*tocEntry) {
	var withAnchor []*tocEntry
	var walk func([]*tocEntry)
	walk = func(es []*tocEntry) {
		for _, e := range es {
			if e.kind == entryLink && !document.HasScheme(e.target) {
				path, _, hasFragment, _, ok := b.target(e)
				if ok && b.r.isPageFile(path) {
					if !hasFragment && b.chosen[path] == nil {
						b.chosen[path] = e
					} else if hasFragment {
						withAnchor = append(withAnchor, e)
					}
				}
			}
			walk(e.children)
		}
	}
	walk(entries)
	for _, e := range withAnchor {
		if path, _, _, _, _ := b.target(e); b.chosen[path] == nil {
			b.chosen[path] = e
		}
	}
}

// pages converts entries and their children.
func (b *summaryBuilder) pages(entries []*tocEntry) []*Page {
	out := make([]*Page, 0, len(entries))
	for _, e := range entries {
		switch e.kind {
		case entryGroup:
			p := &Page{Kind: quire.PageGroup}
			p.Emoji, p.Title = splitEmoji(e.title)
			p.Slug = e.anchorID
			if p.Slug == "" {
				p.Slug = content.Slugify(p.Title)
			}
			p.ID = b.r.groupID(p.Slug)
			p.Children = b.pages(e.children)
			out = append(out, p)
		case entryLink:
			p := b.linkEntry(e)
			p.Children = append(p.Children, b.pages(e.children)...)
			out = append(out, p)
		case entryComputed:
			if p := b.computed(e); p != nil {
				out = append(out, p)
			}
		case entryText:
			p := b.listedPage(e, ListedAsText)
			p.Children = b.pages(e.children)
			out = append(out, p)
		}
	}
	return out
}

// linkEntry converts a list item with a link: the page of a page file,
// or a link page.
func (b *summaryBuilder) linkEntry(e *tocEntry) *Page {
	if e.target == "" {
		return b.listedPage(e, ListedWithEmptyLink)
	}
	if document.HasScheme(e.target) {
		return b.linkPage(e, &quire.ContentRef{Kind: document.RefURL, URL: e.target}, e.target)
	}
	path, fragment, hasFragment, exists, ok := b.target(e)
	switch {
	case !ok:
		b.r.warn(b.r.summary, "line %d: link %q is not a file under the root", e.line, e.target)
	case b.r.isPageFile(path) && b.chosen[path] == e:
		if !exists {
			b.r.warn(b.r.summary, "line %d: page file %s is missing; the page is empty", e.line, path)
		}
		return b.r.documentPage(path, e.title)
	case b.r.isPageFile(path):
		ref := &quire.ContentRef{Kind: document.RefPage, Page: b.r.pageID(path)}
		if hasFragment && fragment != "" {
			ref.Kind, ref.Anchor = document.RefAnchor, fragment
		}
		return b.linkPage(e, ref, "")
	case exists && path != b.r.summary:
		return b.linkPage(e, &quire.ContentRef{Kind: document.RefFile, File: b.r.file(path).ID}, "")
	default:
		b.r.warn(b.r.summary, "line %d: link %q leads to no file", e.line, e.target)
	}
	return b.linkPage(e, &quire.ContentRef{Kind: document.RefURL, URL: e.target}, e.target)
}

// listedPage makes the page of an entry without a file: an empty
// document page that only holds its title and its children's place, as
// GitBook shows a list item without a link.
func (b *summaryBuilder) listedPage(e *tocEntry, listing string) *Page {
	p := &Page{Kind: quire.PageDocument, Listing: listing, Document: document.New()}
	p.Emoji, p.Title = splitEmoji(e.title)
	p.Slug = content.Slugify(p.Title)
	key := "listed:" + p.Title
	n := b.r.linkSeen[key]
	b.r.linkSeen[key] = n + 1
	p.ID = b.r.id(key+"#"+strconv.Itoa(n), b.r.ids.PageID)
	return p
}

// linkPage makes a link page.
func (b *summaryBuilder) linkPage(e *tocEntry, target *quire.ContentRef, href string) *Page {
	key := "link:" + e.target
	n := b.r.linkSeen[key]
	b.r.linkSeen[key] = n + 1
	p := &Page{ID: b.r.id(key+"#"+strconv.Itoa(n), b.r.ids.PageID), Kind: quire.PageLink, Target: target, Href: href}
	p.Emoji, p.Title = splitEmoji(e.title)
	return p
}

// computed makes a computed page from a fenced yaml block.
func (b *summaryBuilder) computed(e *tocEntry) *Page {
	var src struct {
		Type         string         `yaml:"type"`
		Props        map[string]any `yaml:"props"`
		Dependencies map[string]any `yaml:"dependencies"`
	}
	if err := yaml.Unmarshal([]byte(e.yaml), &src); err != nil || strings.TrimSpace(src.Type) == "" {
		msg := "no type"
		if err != nil {
			msg = yamlMessage(err)
		}
		b.r.warn(b.r.summary, "line %d: computed page ignored: %s", e.line, msg)
		return nil
	}
	b.r.computed++
	return &Page{
		ID:       b.r.id("computed:"+strconv.Itoa(b.r.computed), b.r.ids.PageID),
		Kind:     quire.PageComputed,
		Computed: &quire.ComputedSource{Type: src.Type, Props: src.Props, Dependencies: src.Dependencies},
	}
}
