package gitbook

import (
	"quire/internal/document"
	"quire/internal/quire"
)

// exportResolver writes references as paths relative to one file.
type exportResolver struct {
	w   *writer
	dir string // folder of the file being written
}

// RefForTarget is not used on export.
func (er *exportResolver) RefForTarget(string, document.TargetUse) (document.Ref, bool) {
	return document.Ref{}, false
}

// TargetForRef writes page, anchor and file references as relative
// paths. A page reference to no page file is written "broken-reference",
// as GitBook does; a file reference to no file keeps its id, which is
// the target as read when Read could not resolve it.
func (er *exportResolver) TargetForRef(ref document.Ref, _ document.TargetUse) (string, bool) {
	switch ref.Kind {
	case document.RefPage:
		return er.pageTarget(ref.Page, "", false), true
	case document.RefAnchor:
		if ref.Page == "" {
			return "", false
		}
		return er.pageTarget(ref.Page, ref.Anchor, true), true
	case document.RefFile:
		if path, ok := er.w.filePath[ref.File]; ok {
			return escapeTarget(relPath(er.dir, path)), true
		}
	}
	return "", false
}

// pageTarget is the relative path of a page's file, with an anchor.
func (er *exportResolver) pageTarget(id, anchor string, hasAnchor bool) string {
	path := er.w.pagePath[er.w.pages[id]]
	if path == "" {
		return brokenReference
	}
	t := escapeTarget(relPath(er.dir, path))
	if hasAnchor {
		t += "#" + anchor
	}
	return t
}

// target writes a quire reference (a cover, a link page's target).
func (er *exportResolver) target(ref quire.ContentRef) string {
	if ref.Kind == document.RefURL {
		return ref.URL
	}
	r := document.Ref{Kind: ref.Kind, Page: ref.Page, Anchor: ref.Anchor, File: ref.File}
	if t, ok := er.TargetForRef(r, document.UseLink); ok {
		return t
	}
	switch ref.Kind {
	case document.RefFile:
		return ref.File
	case document.RefAnchor:
		return "#" + ref.Anchor
	}
	return brokenReference
}
