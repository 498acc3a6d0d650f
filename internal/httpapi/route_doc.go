package httpapi

import (
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"quire/internal/quire"
	"quire/internal/service"
)

// routeDoc is the reference text of one operation: a short imperative
// summary, and a description of what it does and what it answers on its
// notable failures. Who may call it is not written here: it is derived
// from the route's row of the authorization table (access.who).
type routeDoc struct {
	Summary     string
	Description string
}

// describeRoutes gives every declared route its summary and description
// from docs, and writes them into the OpenAPI document with the sentence
// saying who may call the operation appended to the description.
func (s *Server) describeRoutes(api huma.API, docs map[string]routeDoc) {
	for i := range s.routes {
		r := &s.routes[i]
		d := docs[r.ID]
		r.Summary, r.Description = d.Summary, d.Description
		op := operationAt(api.OpenAPI(), r.Method, r.Path)
		if op == nil {
			continue
		}
		op.Summary = r.Summary
		op.Description = joinParagraphs(r.Description, r.Access.who())
	}
}

// operationAt returns the operation of the document at method and path.
func operationAt(doc *huma.OpenAPI, method, path string) *huma.Operation {
	item := doc.Paths[path]
	if item == nil {
		return nil
	}
	switch method {
	case http.MethodGet:
		return item.Get
	case http.MethodPost:
		return item.Post
	case http.MethodPut:
		return item.Put
	case http.MethodPatch:
		return item.Patch
	case http.MethodDelete:
		return item.Delete
	}
	return nil
}

// joinParagraphs joins the non-empty texts as paragraphs of Markdown.
func joinParagraphs(texts ...string) string {
	out := ""
	for _, t := range texts {
		if t == "" {
			continue
		}
		if out != "" {
			out += "\n\n"
		}
		out += t
	}
	return out
}

// who says, in a sentence or two, who may call an operation with this row
// of the authorization table and what the others get.
func (a access) who() string {
	if a.public {
		return "Who may call it: anyone, without a token; what is served depends on the link itself (a signed link is checked), not on a role."
	}
	if a.scope == service.ScopeNone {
		return "Who may call it: any authenticated caller; what it answers depends on what the caller may see."
	}
	subject, on := "the "+a.scope.String(), "on"
	switch a.scope {
	case service.ScopeOrganization:
		on = "in"
	case service.ScopeSite:
		subject, on = "the site's organization", "in"
	}
	var text string
	switch {
	case a.min == quire.LevelGuest:
		text = "Who may call it: any member of " + subject + ", guests included; other callers get 404."
	case a.min == a.scope.Visible():
		text = "Who may call it: callers with the " + a.min.String() + " role or higher " + on + " " + subject +
			"; other callers get 404."
	default:
		text = "Who may call it: callers with the " + a.min.String() + " role or higher " + on + " " + subject +
			"; callers who can see " + subject + " with a lower role get 403, the others 404."
	}
	if a.scope == service.ScopeSite {
		text += " An integration installation token may also read the sites its installation covers."
	}
	if a.absentOK {
		text += " When the " + a.scope.String() + " does not exist or the caller cannot see it, the answer is 204 and nothing is deleted."
	}
	return text
}
