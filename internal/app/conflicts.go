package app

import (
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"quire/internal/content"
	"quire/internal/quire"
	"quire/internal/service"
)

// Form fields of the conflicts page: one choice and, for a block, one
// Markdown per conflict, named by the conflict's id after the prefix.
const (
	choiceField   = "choice:"
	markdownField = "markdown:"
)

// conflictsView is what the conflicts page shows: each conflict of a
// change request with main, both sides drawn, and the choices.
type conflictsView struct {
	spaceSidebar
	// Main and At are main's and the change request's revisions the
	// conflicts are between,
	// sent back with the choices.
	Main, At  string
	Conflicts []conflictItem
	// Stale says main or the change request moved since the choices were
	// made; Error is what was wrong with them.
	Stale   bool
	Error   string
	CanEdit bool
	// Outdated says main moved and the update would go through without
	// a choice.
	Outdated bool
}

// conflictItem is one conflict as the page shows it.
type conflictItem struct {
	service.ChangeConflict
	// Kind is "block", "field", "page" or "file"; What names what
	// conflicts.
	Kind, What string
	// MineHTML and MainHTML are the block on each side drawn by the
	// reader's renderer; MineURL and MainURL the page on each side.
	MineHTML, MainHTML template.HTML
	MineURL, MainURL   string
	// Choice and Markdown are what was chosen before, when the page is
	// drawn again.
	Choice, Markdown string
}

// changeConflicts shows the conflicts updating a change request from
// main meets.
func (a *App) changeConflicts(w http.ResponseWriter, r *http.Request) error {
	sp, n, err := spaceAndNumber(r)
	if err != nil {
		return err
	}
	cs, err := a.svc.ChangeRequestConflicts(r.Context(), sp.ID, n)
	if err != nil {
		return err
	}
	return a.drawConflicts(w, r, http.StatusOK, sp, cs, func(v *conflictsView) {})
}

// resolveConflicts settles a change request's conflicts with main as
// the form chose, then goes to the change request; choices made on
// revisions that moved are shown again with the conflicts as they are
// now, nothing written.
func (a *App) resolveConflicts(w http.ResponseWriter, r *http.Request) error {
	sp, n, err := spaceAndNumber(r)
	if err != nil {
		return err
	}
	if err := r.ParseForm(); err != nil {
		return quire.Invalid("form", "cannot read the form")
	}
	ctx := r.Context()
	in := service.ConflictResolutions{Main: r.PostForm.Get("main"), Revision: r.PostForm.Get("revision"),
		Choices: map[string]service.ConflictChoice{}}
	for k, vs := range r.PostForm {
		id, ok := strings.CutPrefix(k, choiceField)
		if !ok || len(vs) == 0 {
			continue
		}
		c := service.ConflictChoice{Take: vs[0]}
		if c.Take == content.TakeEdited {
			c.Markdown = r.PostForm.Get(markdownField + id)
		}
		in.Choices[id] = c
	}
	out, err := a.svc.ResolveChangeRequestConflicts(ctx, userFrom(ctx), sp.ID, n, in)
	if _, msg, ok := formError(err); ok {
		// Draw the choices again beside what was wrong with them.
		cs, cerr := a.svc.ChangeRequestConflicts(ctx, sp.ID, n)
		if cerr != nil {
			return err
		}
		return a.drawConflicts(w, r, http.StatusUnprocessableEntity, sp, cs, func(v *conflictsView) {
			v.Error = quire.ErrorMessage(err)
			if msg == "" {
				v.Error = err.Error()
			}
			keepChoices(v, in)
		})
	} else if err != nil {
		return err
	}
	switch out.Result {
	case service.ResultStale, service.ResultConflicts:
		return a.drawConflicts(w, r, http.StatusConflict, sp, out.Conflicts, func(v *conflictsView) {
			v.Stale = out.Result == service.ResultStale
			if !v.Stale {
				v.Error = "Your choices leave conflicts: choose for these too."
			}
			keepChoices(v, in)
		})
	}
	return seeOther(w, r, spaceAppPath(sp.ID, "changes/"+n), "conflicts-resolved")
}

// keepChoices fills the page's choices with those sent, for the
// conflicts that are still there.
func keepChoices(v *conflictsView, in service.ConflictResolutions) {
	for i := range v.Conflicts {
		c := &v.Conflicts[i]
		if ch, ok := in.Choices[c.ID]; ok {
			c.Choice = ch.Take
			if ch.Take == content.TakeEdited {
				c.Markdown = ch.Markdown
			}
		}
	}
}

// drawConflicts draws the conflicts page; adjust sets what the request
// adds to it.
func (a *App) drawConflicts(w http.ResponseWriter, r *http.Request, status int, sp *quire.Space, cs *service.ChangeRequestConflicts, adjust func(*conflictsView)) error {
	cr := cs.ChangeRequest
	n := strconv.Itoa(cr.Number)
	v := &conflictsView{spaceSidebar: spaceSidebar{Space: sp, ChangeRequest: cr}, Main: cs.Main, At: cs.Revision,
		CanEdit: levelFrom(r.Context()) >= quire.LevelEdit, Outdated: len(cs.Conflicts) == 0 && cs.Main != cr.Base()}
	mine, main := changeMode(sp.ID, n), revisionMode(sp.ID, cs.Main)
	for _, c := range cs.Conflicts {
		it := conflictItem{ChangeConflict: c, Markdown: c.Mine.Markdown}
		switch {
		case c.File != "":
			it.Kind, it.What = "file", "A file"
		case c.Block != "":
			it.Kind, it.What = "block", "A block"
		case c.Field != "" && c.Field != "document":
			it.Kind, it.What = "field", fieldName(c.Field)
		case c.Field == "document":
			it.Kind, it.What = "page", "The whole content"
		default:
			it.Kind, it.What = "page", "The page"
		}
		if c.Mine.Path != "" {
			it.MineURL = mine.base + c.Mine.Path
		}
		if c.Main.Path != "" {
			it.MainURL = main.base + c.Main.Path
		}
		var err error
		if c.Mine.Block != nil {
			if it.MineHTML, err = a.renderBlock(r, sp, mine, c.Mine); err != nil {
				return err
			}
		}
		if c.Main.Block != nil {
			if it.MainHTML, err = a.renderBlock(r, sp, main, c.Main); err != nil {
				return err
			}
		}
		v.Conflicts = append(v.Conflicts, it)
	}
	adjust(v)
	var err error
	if v.Tree, err = a.readTree(r, sp, mine); err != nil {
		return err
	}
	sh, err := a.spaceShell(r, sp, "Conflicts · #"+n+" "+cr.Subject+" · "+sp.Title)
	if err != nil {
		return err
	}
	sh.Section = "changes"
	return a.render(w, r, status, "conflicts", sh, v)
}

// renderBlock draws one side's block with the reader's renderer, its
// references resolved in the content it comes from.
func (a *App) renderBlock(r *http.Request, sp *quire.Space, m pageMode, side service.ConflictSide) (template.HTML, error) {
	rd, err := a.svc.ReadSpace(r.Context(), m.ref, side.Path, m.addresses(sp.ID))
	if quire.IsNotFound(err) {
		rd, err = a.svc.ReadSpace(r.Context(), m.ref, "", m.addresses(sp.ID))
	}
	if err != nil {
		return "", err
	}
	if rd.Page == nil {
		return "", nil
	}
	body, _, err := a.renderDocument(rd, side.Block)
	return body, err
}

// fieldName names a page field the way people read it.
func fieldName(f string) string {
	switch f {
	case "title":
		return "The title"
	case "description":
		return "The description"
	case "slug":
		return "The address"
	case "parent", "position":
		return "The place in the tree"
	case "emoji", "icon":
		return "The icon"
	}
	return "The " + f
}
