package document

import (
	"strings"
)

// verbatimTag converts a tag block whose source was kept rather than
// parsed: OpenAPI and swagger blocks whose body is only their fallback
// link become the schema's blocks, and anything else is kept verbatim.
func (c *converter) verbatimTag(n *tagBlock) []Node {
	src := n.source()
	t := n.tag
	body, ok := tagBody(src, t.name)
	if !ok {
		return []Node{rawBlock(src)}
	}
	var b Node
	switch t.name {
	case "openapi", "swagger":
		target, _ := t.attr("src")
		path, hasPath := t.attr("path")
		method, hasMethod := t.attr("method")
		if target == "" || !hasPath || !hasMethod || t.name == "swagger" && body != "" {
			return []Node{rawBlock(src)}
		}
		ref := c.opts.refForTarget(target, UseOpenAPI)
		if ref.Kind != RefURL && ref.Kind != RefFile {
			return []Node{rawBlock(src)}
		}
		b = Block(TypeSwagger, map[string]any{"ref": ref, "path": path, "method": method})
	case "openapi-operation":
		spec, okSpec := t.attr("spec")
		path, hasPath := t.attr("path")
		method, hasMethod := t.attr("method")
		if !okSpec || !hasPath || !hasMethod {
			return []Node{rawBlock(src)}
		}
		b = Block(TypeOpenAPIOp, map[string]any{"ref": Ref{Kind: RefOpenAPI, Spec: spec}, "path": path, "method": method})
	case "openapi-schemas":
		spec, okSpec := t.attr("spec")
		schemas, hasSchemas := t.attr("schemas")
		if !okSpec || !hasSchemas {
			return []Node{rawBlock(src)}
		}
		data := map[string]any{"ref": Ref{Kind: RefOpenAPI, Spec: spec}, "schemas": splitList(schemas)}
		if g, ok := t.attr("grouped"); ok {
			data["grouped"] = g == "true"
		}
		b = Block(TypeOpenAPISchemas, data)
	case "openapi-webhook":
		spec, okSpec := t.attr("spec")
		name, hasName := t.attr("name")
		method, hasMethod := t.attr("method")
		if !okSpec || !hasName || !hasMethod {
			return []Node{rawBlock(src)}
		}
		b = Block(TypeOpenAPIWebhook, map[string]any{"ref": Ref{Kind: RefOpenAPI, Spec: spec}, "name": name, "method": method})
	default:
		return []Node{rawBlock(src)}
	}
	if body != "" && body != c.fallbackBody(b) {
		// A fallback other than the one ToMarkdown writes is kept.
		b.Data["body"] = body
	}
	return []Node{b}
}

// tagBody returns the text between a block's opening tag and its end tag,
// trimmed, when the source is exactly one such pair.
func tagBody(src, name string) (string, bool) {
	_, size, ok := parseLiquidTag([]byte(src))
	if !ok {
		return "", false
	}
	rest := src[size:]
	end := endTagIndex([]byte(rest), name)
	if end < 0 || strings.TrimSpace(rest[end:]) != "{% end"+name+" %}" {
		return "", false
	}
	body := strings.TrimSpace(rest[:end])
	// A nested tag of the same name makes the first end tag not ours.
	if strings.Contains(body, "{% "+name+" ") {
		return "", false
	}
	return body, true
}
