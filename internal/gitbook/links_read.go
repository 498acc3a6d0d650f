package gitbook

import (
	"strings"

	"quire/internal/document"
)

// importResolver maps the link targets of one page file to references.
type importResolver struct {
	r    *reader
	dir  string // folder of the page file
	page *Page
}

// RefForTarget resolves relative paths: a page file of the tree gives a
// page reference (an anchor reference with the page when the target has
// a fragment), any other file of the repository a file reference. URLs,
// same-page anchors and targets that resolve to nothing take the default
// mapping, which keeps their text.
func (ir *importResolver) RefForTarget(target string, use document.TargetUse) (document.Ref, bool) {
	if target == "" || document.HasScheme(target) || target == brokenReference {
		return document.Ref{}, false
	}
	p, fragment, hasFragment := splitTarget(target)
	if p == "" {
		if hasFragment && fragment != "" && (use == document.UseMention || use == document.UseContentRef) {
			return document.Ref{Kind: document.RefAnchor, Page: ir.page.ID, Anchor: fragment}, true
		}
		return document.Ref{}, false
	}
	path, exists, ok := ir.r.resolve(ir.dir, p)
	if !ok {
		ir.r.warn(ir.page.Path, "link %q leaves the root", target)
		return document.Ref{}, false
	}
	if ir.r.isPageFile(path) {
		page := ir.r.pageByPath[path]
		switch {
		case page == nil && !exists:
			ir.r.warn(ir.page.Path, "link %q leads to no file", target)
			return document.Ref{}, false
		case page == nil || use == document.UseImage || use == document.UseFile:
			ir.r.warn(ir.page.Path, "link %q is not to a page of the table of contents", target)
			return document.Ref{}, false
		case hasFragment && fragment != "":
			return document.Ref{Kind: document.RefAnchor, Page: page.ID, Anchor: fragment}, true
		}
		return document.Ref{Kind: document.RefPage, Page: page.ID}, true
	}
	if !exists || path == ir.r.summary {
		if use != document.UseLink || strings.HasPrefix(path, assetsDir+"/") || strings.Contains(baseOf(path), ".") {
			ir.r.warn(ir.page.Path, "link %q leads to no file", target)
		}
		return document.Ref{}, false
	}
	return document.Ref{Kind: document.RefFile, File: ir.r.file(path).ID}, true
}

// TargetForRef is not used on import.
func (ir *importResolver) TargetForRef(document.Ref, document.TargetUse) (string, bool) {
	return "", false
}
