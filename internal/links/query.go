package links

import (
	"fmt"
	"slices"

	"quire/internal/document"
	"quire/internal/quire"
)

// Filter selects the usages of a list.
type Filter struct {
	// Page keeps the references found in this page, and only that page
	// among the locations; "" keeps every page.
	Page string
	// Status keeps the usages of this status; "" keeps all.
	Status Status
	// Context keeps, when set, the broken usages broken in that context:
	// Base is then the index of the space's revision.
	Context BrokenContext
	// Base is the index of the space's revision, for the references of a
	// change request: a usage broken here and not there is broken by the
	// change request. Nil outside change requests.
	Base *Index
	// OpenAPI, when set, gives the status of the references to OpenAPI
	// specifications (in this index and in Base), which the index leaves
	// ok: specifications change apart from revisions.
	OpenAPI OpenAPICheck
}

// OpenAPICheck returns the status of a reference to the OpenAPI
// specification slug whose blocks show ops.
type OpenAPICheck func(slug string, ops []Operation) Status

// statusOf is the status of a usage, its OpenAPI target checked by check
// when set.
func statusOf(u *Usage, check OpenAPICheck) Status {
	if check != nil && u.Target.Kind == document.RefOpenAPI {
		return check(u.Target.Spec, u.Operations)
	}
	return u.Status
}

// OpenAPISpecs returns the slugs of the OpenAPI specifications the
// revision references, each once, in order of appearance.
func (ix *Index) OpenAPISpecs() []string {
	var out []string
	for _, u := range ix.usages {
		if u.Target.Kind == document.RefOpenAPI && !slices.Contains(out, u.Target.Spec) {
			out = append(out, u.Target.Spec)
		}
	}
	return out
}

// Page returns a page of the revision. Returns ENOTFOUND.
func (ix *Index) Page(id string) (*Page, error) {
	p, ok := ix.pages[id]
	if !ok {
		return nil, quire.NotFound("page")
	}
	return p, nil
}

// File returns a file of the revision. Returns ENOTFOUND.
func (ix *Index) File(id string) (*quire.File, error) {
	f, ok := ix.files[id]
	if !ok {
		return nil, quire.NotFound("file")
	}
	return f, nil
}

// Usages returns the usages f selects, in order, and the stats of the
// list before the status and context filters.
func (ix *Index) Usages(f Filter) ([]Usage, Stats) {
	var out []Usage
	var st Stats
	if f.Base != nil {
		st.BrokenByChangeRequest = new(int)
	}
	for _, u := range ix.usages {
		v := *u
		v.Status = statusOf(u, f.OpenAPI)
		if f.Page != "" {
			loc, ok := v.locationIn(f.Page)
			if !ok {
				continue
			}
			v.Locations = []Location{loc}
		}
		st.Total++
		byCR := false
		if v.Status == StatusBroken {
			st.Broken++
			if f.Base != nil && !f.Base.broken(v.Key, f.OpenAPI) {
				byCR = true
				*st.BrokenByChangeRequest++
			}
		}
		if f.Status != "" && v.Status != f.Status {
			continue
		}
		if f.Context != "" && (v.Status != StatusBroken || byCR != (f.Context == BrokenInChangeRequest)) {
			continue
		}
		out = append(out, v)
	}
	return out, st
}

// broken reports whether the usage with key is broken in the index, its
// OpenAPI target checked by check when set.
func (ix *Index) broken(key string, check OpenAPICheck) bool {
	u, ok := ix.byKey[key]
	return ok && statusOf(u, check) == StatusBroken
}

// locationIn returns the usage's location in a page.
func (u Usage) locationIn(page string) (Location, bool) {
	for _, l := range u.Locations {
		if l.Page == page {
			return l, true
		}
	}
	return Location{}, false
}

// PageBacklinks returns the pages referencing a page (or an anchor of
// it), the page itself left out, in tree order. Returns ENOTFOUND when the
// revision has no such page.
func (ix *Index) PageBacklinks(id string) ([]*Page, error) {
	if _, err := ix.Page(id); err != nil {
		return nil, err
	}
	return ix.pagesOf(ix.pageLinks[id]), nil
}

// FileBacklinks returns the pages referencing a file, in tree order.
// Returns ENOTFOUND when the revision has no such file.
func (ix *Index) FileBacklinks(id string) ([]*Page, error) {
	if _, err := ix.File(id); err != nil {
		return nil, err
	}
	return ix.pagesOf(ix.fileLinks[id]), nil
}

// pagesOf returns the pages of ids.
func (ix *Index) pagesOf(ids []string) []*Page {
	out := make([]*Page, 0, len(ids))
	for _, id := range ids {
		out = append(out, ix.pages[id])
	}
	return out
}

// SortKey orders pages in tree order; keys are unique within an index.
func (p *Page) SortKey() string { return fmt.Sprintf("%010d", p.order) }
