package app

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"quire/internal/content"
	"quire/internal/quire"
	"quire/internal/service"
)

// pageOpView is what the page operations' form pages show: the space's
// tree in the sidebar, and the form of one operation (Kind: actions, new,
// rename, move or delete) on Page.
type pageOpView struct {
	spaceSidebar
	Kind string
	// Base is the base of the operations' addresses; Back the address
	// of the page (or of the content) to go back to.
	Base, Back string
	Target     *pageOp
	Page       *quire.RevisionPage
	// Parent and After are where a new page goes.
	Parent, After *quire.RevisionPage
	// Choices are the pages a page may move into, the page's parent
	// always among them; ChoicesCut says the list stops at
	// maxPageChoices. Subpages counts the pages a delete takes with it.
	Choices    []pageChoice
	ChoicesCut bool
	Subpages   int
	State      *FormState
}

// pageChoice is a page offered as a destination, indented by depth.
type pageChoice struct {
	ID, Title string
	Depth     int
}

// Label is the choice's text in a select, indented by its depth.
func (c pageChoice) Label() string { return strings.Repeat("\u00a0\u00a0", c.Depth) + c.Title }

// maxPageTitle bounds a page title, as the API does.
const maxPageTitle = 200

// pageFormTitle reads and checks the title field of a page form.
func pageFormTitle(r *http.Request) (string, error) {
	t := strings.TrimSpace(r.PostFormValue("title"))
	switch {
	case t == "":
		return t, quire.Invalid("title", "must not be empty")
	case utf8.RuneCountInString(t) > maxPageTitle:
		return t, quire.Invalid("title", "must be at most %d characters", maxPageTitle)
	}
	return t, nil
}

// pageFormState turns an invalid-input error into the state of the form
// to draw again, the field named without the write's "changes[i]."
// prefix; ok is false for other errors.
func pageFormState(form string, err error, title string) (*FormState, bool) {
	field, msg, ok := formError(err)
	if !ok {
		return nil, false
	}
	if i := strings.Index(field, "]."); strings.HasPrefix(field, "changes[") && i > 0 {
		field = field[i+2:]
	}
	return &FormState{Form: form, Title: title, Field: field, Message: pageFieldLabel(field) + " " + msg + "."}, true
}

// pageFieldLabel names a field of the page forms in an error message;
// never "", so that a message always says what it is about.
func pageFieldLabel(field string) string {
	switch field {
	case "":
		return "The page"
	case "layout.width":
		return "Width"
	case "layout.coverSize":
		return "Cover size"
	}
	if i := strings.LastIndexByte(field, '.'); i >= 0 && i < len(field)-1 {
		field = field[i+1:]
	}
	return strings.ToUpper(field[:1]) + field[1:]
}

// drawPageOp draws the form page of an operation, again with its error
// when state is set.
func (a *App) drawPageOp(w http.ResponseWriter, r *http.Request, status int, op *pageOp, kind string, state *FormState) error {
	v := &pageOpView{Kind: kind, Base: op.base(), Target: op, Page: op.page, State: state, Back: op.m.base}
	v.Space, v.ChangeRequest, v.Edit = op.sp, op.c.ChangeRequest, op.base()
	var err error
	if v.Tree, err = a.readTree(r, op.sp, op.m); err != nil {
		return err
	}
	ctx := r.Context()
	if op.page != nil {
		if v.Back, err = a.pageURL(r, op, op.page.ID); err != nil {
			return err
		}
	}
	title := ""
	switch kind {
	case "new":
		title = "New page"
		q := r.URL.Query()
		if r.Method == http.MethodPost {
			q = r.PostForm
		}
		if id := q.Get("parent"); id != "" {
			v.Parent, _ = op.c.Page(ctx, id)
		}
		if id := q.Get("after"); id != "" {
			v.After, _ = op.c.Page(ctx, id)
		}
	case "actions":
		title = "Page actions for " + op.page.Title
	case "rename":
		title = "Rename " + op.page.Title
	case "move":
		title = "Move " + op.page.Title
		if v.Choices, v.ChoicesCut, err = a.pageChoices(r, op); err != nil {
			return err
		}
	case "delete":
		title = "Delete " + op.page.Title
		if v.Subpages, err = countSubpages(r, op.c, op.page.ID); err != nil {
			return err
		}
	}
	sh, err := a.spaceShell(r, op.sp, title+" · "+op.sp.Title)
	if err != nil {
		return err
	}
	if !op.t.live() {
		sh.Section = "changes"
	}
	return a.render(w, r, status, "pageops", sh, v)
}

// maxPageChoices bounds the pages the move form lists.
const maxPageChoices = 2000

// pageChoices lists the document and group pages of the content a page
// may move into, in tree order: not the page or its subpages. It stops at
// maxPageChoices (cut is then true), but always lists the page's parent,
// so that the form, sent unchanged, keeps the page where it is.
func (a *App) pageChoices(r *http.Request, op *pageOp) (out []pageChoice, cut bool, err error) {
	parentListed := op.page.Parent == ""
	var walk func(parent string, depth int) error
	walk = func(parent string, depth int) error {
		kids, err := op.c.Children(r.Context(), parent)
		if err != nil {
			return err
		}
		for _, k := range kids {
			if k.ID == op.page.ID || (k.Type != quire.PageDocument && k.Type != quire.PageGroup) {
				continue
			}
			if len(out) >= maxPageChoices {
				cut = true
				return nil
			}
			out = append(out, pageChoice{ID: k.ID, Title: k.Title, Depth: depth})
			parentListed = parentListed || k.ID == op.page.Parent
			if err := walk(k.ID, depth+1); err != nil || cut {
				return err
			}
		}
		return nil
	}
	if err := walk("", 0); err != nil {
		return nil, false, err
	}
	if !parentListed {
		p, err := op.c.Page(r.Context(), op.page.Parent)
		if err != nil {
			return nil, false, err
		}
		out = append(out, pageChoice{ID: p.ID, Title: p.Title})
	}
	return out, cut, nil
}

// countSubpages counts the pages below a page.
func countSubpages(r *http.Request, c *service.Content, id string) (int, error) {
	kids, err := c.Children(r.Context(), id)
	if err != nil {
		return 0, err
	}
	n := len(kids)
	for _, k := range kids {
		m, err := countSubpages(r, c, k.ID)
		if err != nil {
			return 0, err
		}
		n += m
	}
	return n, nil
}

// pageOpForm answers the form page of an operation: kind is fixed by
// the route.
func (a *App) pageOpForm(kind string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		op, err := a.loadPageOp(r)
		if err != nil {
			return err
		}
		return a.drawPageOp(w, r, http.StatusOK, op, kind, nil)
	}
}

// writePageOp writes changes to the operation's target, subject naming
// them, and answers the address of page id as the content has it after
// the write. An invalid change draws the form of kind again, 422 with the
// field named, and answers "".
func (a *App) writePageOp(w http.ResponseWriter, r *http.Request, op *pageOp, kind, title, subject string, changes []service.ContentChange) (string, error) {
	_, results, err := a.writeContent(r.Context(), op.sp, op.t, subject, changes)
	if st, ok := pageFormState(kind, err, title); ok {
		return "", a.drawPageOp(w, r, http.StatusUnprocessableEntity, op, kind, st)
	} else if err != nil {
		return "", err
	}
	id := ""
	if op.page != nil {
		id = op.page.ID
	}
	if len(results) > 0 && results[0].Operation == service.OutcomeCreatedPage {
		id = results[0].PageID
	}
	return a.pageURL(r, op, id)
}

// refuse draws the form of kind again with err, an invalid-input error
// of the form.
func (a *App) refuse(w http.ResponseWriter, r *http.Request, op *pageOp, kind, title string, err error) error {
	st, ok := pageFormState(kind, err, title)
	if !ok {
		return err
	}
	return a.drawPageOp(w, r, http.StatusUnprocessableEntity, op, kind, st)
}

// createPage adds a page: under parent (last), after a page, or last at
// the top level.
func (a *App) createPage(w http.ResponseWriter, r *http.Request) error {
	op, err := a.loadPageOp(r)
	if err != nil {
		return err
	}
	title, err := pageFormTitle(r)
	empty := ""
	ch := service.ContentChange{Operation: service.OpInsertPage, Document: &service.DocumentInput{Markdown: &empty},
		Fields: service.PageFields{Title: &title}}
	if err == nil {
		err = op.placeNew(r, &ch)
	}
	if err != nil {
		return a.refuse(w, r, op, "new", title, err)
	}
	to, err := a.writePageOp(w, r, op, "new", title, "Add page "+title, []service.ContentChange{ch})
	if err != nil || to == "" {
		return err
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

// placeNew places a new page from the form's parent or after fields.
func (op *pageOp) placeNew(r *http.Request, ch *service.ContentChange) error {
	parent, after := r.PostFormValue("parent"), r.PostFormValue("after")
	switch {
	case after != "":
		p, err := op.findPage(r, "after", after)
		if err != nil {
			return err
		}
		_, i, err := op.siblings(r, p)
		if err != nil {
			return err
		}
		at := i + 1
		ch.Into, ch.At = &p.Parent, &at
	case parent != "":
		p, err := op.findPage(r, "parent", parent)
		if err != nil {
			return err
		}
		if p.Type != quire.PageDocument && p.Type != quire.PageGroup {
			return quire.Invalid("parent", "a %s page cannot hold pages", p.Type)
		}
		ch.Into = &p.ID
	}
	return nil
}

// renamePage changes a page's title; its slug follows the title unless
// it was set to something else.
func (a *App) renamePage(w http.ResponseWriter, r *http.Request) error {
	op, err := a.loadPageOp(r)
	if err != nil {
		return err
	}
	title, err := pageFormTitle(r)
	if err != nil {
		return a.refuse(w, r, op, "rename", title, err)
	}
	f := service.PageFields{Title: &title}
	if slug := content.Slugify(title); slug != "" && followsTitle(op.page) {
		f.Slug = &slug
	}
	to, err := a.writePageOp(w, r, op, "rename", title, "Rename "+op.page.Title,
		[]service.ContentChange{{Operation: service.OpUpdatePage, Page: op.page.ID, Fields: f}})
	if err != nil || to == "" {
		return err
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

// followsTitle reports whether a page's slug is the one its title gives,
// perhaps with the suffix that told it from a sibling's.
func followsTitle(p *quire.RevisionPage) bool {
	base := content.Slugify(p.Title)
	if p.Slug == "" || p.Slug == base {
		return true
	}
	rest, ok := strings.CutPrefix(p.Slug, base+"-")
	return ok && rest != "" && strings.Trim(rest, "0123456789") == ""
}

// duplicatePage copies a page and its subpages right after it.
func (a *App) duplicatePage(w http.ResponseWriter, r *http.Request) error {
	op, err := a.loadPageOp(r)
	if err != nil {
		return err
	}
	changes, err := a.svc.DuplicatePageChanges(r.Context(), op.m.ref, op.page.ID)
	if err != nil {
		return a.refuse(w, r, op, "actions", "", err)
	}
	to, err := a.writePageOp(w, r, op, "actions", "", "Duplicate "+op.page.Title, changes)
	if err != nil || to == "" {
		return err
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

// deletePage removes a page and its subpages once confirmed; without the
// confirmation it draws the page that asks.
func (a *App) deletePage(w http.ResponseWriter, r *http.Request) error {
	op, err := a.loadPageOp(r)
	if err != nil {
		return err
	}
	if r.PostFormValue("confirm") != "yes" {
		return a.drawPageOp(w, r, http.StatusOK, op, "delete", nil)
	}
	parent := op.page.Parent
	to, err := a.writePageOp(w, r, op, "delete", "", "Delete "+op.page.Title,
		[]service.ContentChange{{Operation: service.OpDeletePage, Page: op.page.ID}})
	if err != nil || to == "" {
		return err
	}
	if parent != "" {
		if to, err = a.pageURL(r, op, parent); err != nil {
			return err
		}
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}
