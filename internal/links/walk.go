package links

import (
	"sort"
	"strings"

	"quire/internal/document"
	"quire/internal/quire"
)

// Column types of a table definition whose values are references.
const (
	columnContentRef = "content-ref"
	columnImage      = "image"
	columnFiles      = "files"
)

// Found is one content reference of a page.
type Found struct {
	// Ref is the reference as written.
	Ref document.Ref
	// Node is the key of the innermost block holding it; "" for the
	// page's own references (a link page's target, a cover).
	Node string
	// Relation is how the page relates to the target.
	Relation Relation
	// Operation is the operation an openapi-operation block shows; zero
	// for other references.
	Operation Operation
}

// Operation names an operation of an OpenAPI specification: its path and
// its method in upper case.
type Operation struct {
	Path, Method string
}

// DocumentRefs returns the content references of a document, in document
// order: references in the data of blocks and inlines (fragments
// included), table cells of reference, image and file columns, and embed
// URLs.
func DocumentRefs(d *document.Document) []Found {
	if d == nil {
		return nil
	}
	var w walker
	w.nodes(d.Nodes, "")
	return w.found
}

// PageRefs returns the references of a page's metadata: a link page's
// target and a document page's cover images.
func PageRefs(p *quire.RevisionPage) []Found {
	var out []Found
	add := func(r *quire.ContentRef) {
		if r != nil && r.Kind != "" {
			out = append(out, Found{Ref: *r, Relation: RelationReference})
		}
	}
	switch p.Type {
	case quire.PageLink:
		if p.Target != nil {
			add(p.Target)
		} else if p.Href != "" {
			add(&quire.ContentRef{Kind: document.RefURL, URL: p.Href})
		}
	case quire.PageDocument:
		if p.Cover != nil {
			add(p.Cover.Ref)
			add(p.Cover.RefDark)
		}
	}
	return out
}

// walker gathers references.
type walker struct {
	found []Found
}

// nodes walks nodes inside the block with key block.
func (w *walker) nodes(nodes []document.Node, block string) {
	for _, n := range nodes {
		if n.Object == document.ObjectText {
			continue
		}
		key := block
		if n.Object == document.ObjectBlock && n.Key != "" {
			key = n.Key
		}
		w.data(n, key)
		w.nodes(n.Nodes, key)
		w.nodes(n.Fragments, key)
	}
}

// data gathers the references in a node's data.
func (w *walker) data(n document.Node, block string) {
	rel := relationOf(n)
	fields := make([]string, 0, len(n.Data))
	for k := range n.Data {
		fields = append(fields, k)
	}
	sort.Strings(fields)
	for _, k := range fields {
		if r, ok := refOf(n.Data[k]); ok {
			w.add(r, block, rel)
			if r.Kind == document.RefOpenAPI && n.Object == document.ObjectBlock && n.Type == document.TypeOpenAPIOp {
				path, _ := n.Data["path"].(string)
				method, _ := n.Data["method"].(string)
				w.found[len(w.found)-1].Operation = Operation{Path: path, Method: strings.ToUpper(method)}
			}
		}
	}
	switch {
	case n.Object == document.ObjectBlock && n.Type == document.TypeTable:
		w.table(n, block)
	case n.Object == document.ObjectBlock && n.Type == document.TypeEmbed:
		if _, hasRef := refOf(n.Data["ref"]); !hasRef {
			if u, _ := n.Data["url"].(string); u != "" {
				w.add(document.Ref{Kind: document.RefURL, URL: u}, block, rel)
			}
		}
	}
}

// add records a reference.
func (w *walker) add(r document.Ref, block string, rel Relation) {
	w.found = append(w.found, Found{Ref: r, Node: block, Relation: rel})
}

// table gathers the references in the cells of a table's reference,
// image and file columns, record by record in their order.
func (w *walker) table(n document.Node, block string) {
	defs, _ := n.Data["definition"].(map[string]any)
	recs, _ := n.Data["records"].(map[string]any)
	cols := make([]string, 0, len(defs))
	for id, d := range defs {
		dm, _ := d.(map[string]any)
		switch dm["type"] {
		case columnContentRef, columnImage, columnFiles:
			cols = append(cols, id)
		}
	}
	if len(cols) == 0 {
		return
	}
	sort.Strings(cols)
	type record struct {
		id, order string
		values    map[string]any
	}
	rs := make([]record, 0, len(recs))
	for id, r := range recs {
		rm, _ := r.(map[string]any)
		order, _ := rm["orderIndex"].(string)
		values, _ := rm["values"].(map[string]any)
		rs = append(rs, record{id: id, order: order, values: values})
	}
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].order != rs[j].order {
			return rs[i].order < rs[j].order
		}
		return rs[i].id < rs[j].id
	})
	for _, r := range rs {
		for _, c := range cols {
			v := r.values[c]
			if ref, ok := refOf(v); ok {
				w.add(ref, block, RelationReference)
				continue
			}
			list, _ := v.([]any)
			for _, f := range list {
				s, _ := f.(string)
				switch {
				case s == "":
				case document.HasScheme(s):
					w.add(document.Ref{Kind: document.RefURL, URL: s}, block, RelationReference)
				default:
					w.add(document.Ref{Kind: document.RefFile, File: s}, block, RelationReference)
				}
			}
		}
	}
}

// relationOf is the relation of the references of a node: blocks that
// embed their target depend on it.
func relationOf(n document.Node) Relation {
	if n.Object != document.ObjectBlock {
		return RelationReference
	}
	switch n.Type {
	case document.TypeReusableContent, document.TypeSwagger, document.TypeOpenAPIOp,
		document.TypeOpenAPISchemas, document.TypeOpenAPIWebhook:
		return RelationDependsOn
	}
	return RelationReference
}

// refOf reads a content reference from a data value: a parsed reference,
// or a JSON object with a known kind (as table cells hold them).
func refOf(v any) (document.Ref, bool) {
	switch x := v.(type) {
	case document.Ref:
		return x, x.Kind != ""
	case *document.Ref:
		if x != nil && x.Kind != "" {
			return *x, true
		}
	case map[string]any:
		kind, _ := x["kind"].(string)
		r := document.Ref{Kind: kind}
		for _, f := range []struct {
			name string
			dst  *string
		}{{"url", &r.URL}, {"file", &r.File}, {"page", &r.Page}, {"anchor", &r.Anchor}, {"space", &r.Space},
			{"user", &r.User}, {"collection", &r.Collection}, {"reusableContent", &r.ReusableContent}, {"spec", &r.Spec}} {
			*f.dst, _ = x[f.name].(string)
		}
		switch kind {
		case document.RefURL, document.RefFile, document.RefPage, document.RefAnchor, document.RefUser,
			document.RefCollection, document.RefSpace, document.RefReusableContent, document.RefOpenAPI:
			return r, true
		}
	}
	return document.Ref{}, false
}
