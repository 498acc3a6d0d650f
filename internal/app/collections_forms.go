package app

import (
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"quire/internal/quire"
	"quire/internal/service"
)

// maxTitle is the longest title of a space or collection, in characters,
// as the API allows; maxDescription that of a collection's description.
const (
	maxTitle       = 50
	maxDescription = 100
)

// noticeParam is the query parameter a page is redirected with to confirm
// a change; its value is a key of notices, never text to show.
const noticeParam = "notice"

// noticeText returns the confirmation a redirect asked for by key, ""
// for an unknown key.
func noticeText(key string) string {
	switch key {
	case "collection-created":
		return "Collection created"
	case "collection-renamed":
		return "Collection renamed"
	case "collection-moved":
		return "Collection moved"
	case "collection-deleted":
		return "Collection deleted. The spaces it held are in Trash."
	case "space-created":
		return "Space created"
	case "space-renamed":
		return "Space renamed"
	case "space-moved":
		return "Space moved"
	case "space-deleted":
		return "Space moved to Trash"
	case "space-restored":
		return "Space restored"
	case "conflicts-resolved":
		return "Conflicts settled: the change request is up to date with the space’s content"
	case "git-import-queued":
		return "Import from Git queued"
	case "git-export-queued":
		return "Export to Git queued"
	case "git-import-queued-credentials":
		return "Import from Git queued, with the credentials given"
	case "git-export-queued-credentials":
		return "Export to Git queued, with the credentials given"
	case "restore-proposed":
		return "Restore proposed as this change request: review and merge it to restore"
	}
	return ""
}

// seeOther redirects after a write to path with the notice of key.
func seeOther(w http.ResponseWriter, r *http.Request, path, key string) error {
	http.Redirect(w, r, path+"?"+noticeParam+"="+url.QueryEscape(key), http.StatusSeeOther)
	return nil
}

// formTitle reads and checks the title field of a form: required, at most
// maxTitle characters.
func formTitle(r *http.Request) (string, error) {
	t := strings.TrimSpace(r.PostFormValue("title"))
	switch {
	case t == "":
		return t, quire.Invalid("title", "must not be empty")
	case utf8.RuneCountInString(t) > maxTitle:
		return t, quire.Invalid("title", "must be at most %d characters", maxTitle)
	}
	return t, nil
}

// fieldLabel names a field of the forms, for its error message.
func fieldLabel(field string) string {
	switch field {
	case "title":
		return "Title"
	case "description":
		return "Description"
	case "parent":
		return "Destination"
	}
	return field
}

// FormState is a form drawn again after an invalid submission: the value
// typed, and the field at fault with its message.
type FormState struct {
	// Form names the form at fault, as several share a page.
	Form    string
	Title   string
	Desc    string
	Field   string
	Message string
}

// formState turns an error into the state of a form to draw again; ok is
// false when the error is not about a field.
func formState(form string, err error, title, desc string) (*FormState, bool) {
	field, msg, ok := formError(err)
	if !ok {
		return nil, false
	}
	return &FormState{Form: form, Title: title, Desc: desc, Field: field, Message: fieldLabel(field) + " " + msg + "."}, true
}

// Err returns the message when the state is of form and field, for the
// template to show beside that field.
func (f *FormState) Err(form, field string) string {
	if f == nil || f.Form != form || f.Field != field {
		return ""
	}
	return f.Message
}

// Value returns the value typed into the form's title field, or def when
// the state is of another form.
func (f *FormState) Value(form, def string) string {
	if f == nil || f.Form != form {
		return def
	}
	return f.Title
}

// CreateArgs are what the create forms need: the organization, the
// collection they create in ("" for the root), and any error to show.
type CreateArgs struct {
	OrgID  string
	Parent string
	State  *FormState
}

// CreateIn gives the create forms for the root of the shell's
// organization or a collection of it.
func (sh *Shell) CreateIn(parent string) CreateArgs {
	return CreateArgs{OrgID: sh.Org.ID, Parent: parent}
}

// Destination is a collection something can be moved into, or the root.
type Destination struct {
	ID       string
	Label    string
	Selected bool
}

// destinations lists where an item can move: the root, then every
// collection the caller may create in, indented by depth; never the item
// itself or what it holds. current is the item's parent.
func destinations(tree []*TreeNode, self, current string) []Destination {
	out := []Destination{{ID: "", Label: "Top level of the organization", Selected: current == ""}}
	var walk func(ns []*TreeNode, depth int)
	walk = func(ns []*TreeNode, depth int) {
		for _, n := range ns {
			if n.Space || n.ID == self {
				continue
			}
			if n.Level >= create {
				out = append(out, Destination{ID: n.ID, Label: strings.Repeat("— ", depth) + n.Title, Selected: n.ID == current})
			}
			walk(n.Children, depth+1)
		}
	}
	walk(tree, 1)
	return out
}

// siblingsOf finds the siblings of the node id in the tree (including
// it) and its index among them; nil when it is not there.
func siblingsOf(tree []*TreeNode, id string) ([]*TreeNode, int) {
	for i, n := range tree {
		if n.ID == id {
			return tree, i
		}
		if sib, j := siblingsOf(n.Children, id); sib != nil {
			return sib, j
		}
	}
	return nil, -1
}

// Order is where an item stands among its siblings, for the move up and
// down buttons.
type Order struct {
	First, Last bool
}

// orderOf returns the item's place among its siblings in the tree.
func orderOf(tree []*TreeNode, id string) Order {
	sib, i := siblingsOf(tree, id)
	if sib == nil {
		return Order{First: true, Last: true}
	}
	return Order{First: i == 0, Last: i == len(sib)-1}
}

// anchorOf returns the position to move an item up or down among its
// siblings in the tree; ok is false when it cannot move that way.
func anchorOf(tree []*TreeNode, id, direction string) (service.Position, bool) {
	sib, i := siblingsOf(tree, id)
	kind := func(n *TreeNode) quire.SiblingKind {
		if n.Space {
			return quire.SiblingSpace
		}
		return quire.SiblingCollection
	}
	switch {
	case sib == nil:
	case direction == "up" && i > 0:
		return service.Position{Before: service.NewAnchor(kind(sib[i-1]), sib[i-1].ID)}, true
	case direction == "down" && i < len(sib)-1:
		return service.Position{After: service.NewAnchor(kind(sib[i+1]), sib[i+1].ID)}, true
	}
	return service.Position{}, false
}

// findNode returns the node id in the tree, nil when it is not there.
func findNode(tree []*TreeNode, id string) *TreeNode {
	sib, i := siblingsOf(tree, id)
	if sib == nil {
		return nil
	}
	return sib[i]
}

// pathTo returns the collections from the root down to the parent of id,
// for breadcrumbs; nil when id is at the root or not in the tree.
func pathTo(tree []*TreeNode, id string) []*TreeNode {
	for _, n := range tree {
		if n.ID == id {
			return []*TreeNode{}
		}
		if p := pathTo(n.Children, id); p != nil {
			return append([]*TreeNode{n}, p...)
		}
	}
	return nil
}
