package app

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"quire/internal/document"
	"quire/internal/reader"
	"quire/internal/service"
)

// openAPIOperationsList names, in the insert menu's entry for an API
// operation, the list it opens: an address under the space's "~/", as
// the editor's script resolves it.
const openAPIOperationsList = "openapi.json"

// menuEntry is an entry of the insert menu as served: a block template,
// and for a block that must name something of the organization, the
// list the writer picks it from instead of inserting the template.
type menuEntry struct {
	blockTemplate
	List string `json:"list,omitempty"`
}

// menuEntries are the insert menu's templates as served. An operation
// block names an operation of one of the organization's specifications:
// its entry opens the list of those operations, and its template is
// only an example of what they insert.
func menuEntries(ts []blockTemplate) []menuEntry {
	out := make([]menuEntry, len(ts))
	for i, t := range ts {
		out[i].blockTemplate = t
		if t.Type == document.TypeOpenAPIOp {
			out[i].List = openAPIOperationsList
		}
	}
	return out
}

// spaceOpenAPIOperations answers the operations a writer may show in a
// page of the space, those of its organization's specifications, as
// entries of the editor's insert menu: each inserts the operation's
// openapi-operation block. It is read at the space's read level, as the
// blocks' cards are shown to its readers.
func (a *App) spaceOpenAPIOperations(w http.ResponseWriter, r *http.Request) error {
	specs, err := a.openAPIService()
	if err != nil {
		return err
	}
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	ops, err := specs.Operations(r.Context(), sp.OrgID)
	if err != nil {
		return err
	}
	out := make([]blockTemplate, 0, len(ops))
	for _, op := range ops {
		md, err := openAPIOperationMarkdown(op)
		if err != nil {
			return err
		}
		name := op.Method + " " + op.Path
		if op.Summary != "" {
			name += " · " + op.Summary
		}
		keywords := []string{op.Spec}
		for _, k := range []string{op.Title, op.OperationID} {
			if k != "" {
				keywords = append(keywords, k)
			}
		}
		out = append(out, blockTemplate{Name: name + " (" + op.Spec + ")", Keywords: keywords, Type: document.TypeOpenAPIOp, Markdown: md})
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	_, err = w.Write(b)
	return err
}

// openAPIOperationMarkdown is the Markdown of an operation's block, as
// the dialect writes it, so that what the menu inserts is what a save
// keeps.
func openAPIOperationMarkdown(op service.OpenAPIOperation) (string, error) {
	n := document.Block(document.TypeOpenAPIOp, map[string]any{
		"ref":    document.Ref{Kind: document.RefOpenAPI, Spec: op.Spec},
		"path":   op.Path,
		"method": strings.ToLower(op.Method),
	})
	return document.ToMarkdown(&document.Document{Nodes: []document.Node{n}})
}

// openAPICards resolves the openapi-operation blocks of a space read as
// the reader draws them: the operation's reference card from the
// organization's specification, or a note when it cannot be found.
func (a *App) openAPICards(rd *service.SpaceRead) func(document.Node) *reader.OpenAPICard {
	ops := a.svc.SpaceOperations(rd)
	return func(n document.Node) *reader.OpenAPICard {
		op := ops(n)
		switch {
		case op == nil:
			return nil
		case op.Card != nil:
			return &reader.OpenAPICard{Operation: op.Card}
		}
		return &reader.OpenAPICard{Method: op.Method, Path: op.Path, Missing: op.Missing}
	}
}
