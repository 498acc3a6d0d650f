package app

import (
	"encoding/json"
	"net/http"

	"quire/internal/quire"
	"quire/internal/service"
)

// siteItemKind returns the kind of the item of a site's structure with
// an id, and false when the site has none.
func siteItemKind(st *service.SiteStructure, id string) (quire.SiteItemKind, bool) {
	switch {
	case id == "":
		return "", false
	case st.SiteSpaceByID(id) != nil:
		return quire.SiteItemSpace, true
	case st.SectionByID(id) != nil:
		return quire.SiteItemSection, true
	case st.GroupByID(id) != nil:
		return quire.SiteItemGroup, true
	}
	return "", false
}

// kindWords names a kind of item for people.
func kindWords(k quire.SiteItemKind) string {
	switch k {
	case quire.SiteItemSpace:
		return "site space"
	case quire.SiteItemSection:
		return "section"
	}
	return "section group"
}

// moveSiteItem moves an item of the site's structure before, after or
// inside another (the form's target and place), as dropping it in the
// tree or its move up and down buttons ask, through the structure's
// sort operation.
func (a *App) moveSiteItem(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	ctx := r.Context()
	u := userFrom(ctx)
	orgID, siteID, id := r.PathValue("organizationId"), r.PathValue("siteId"), r.PathValue("itemId")
	st, err := sites.SiteStructure(ctx, u, orgID, siteID, "")
	if err != nil {
		return err
	}
	kind, ok := siteItemKind(st, id)
	if !ok {
		return quire.NotFound("site item")
	}
	target := r.PostFormValue("target")
	tkind, ok := siteItemKind(st, target)
	if !ok {
		return quire.Invalid("target", "choose an item of this site to move it next to")
	}
	if target == id {
		return quire.Invalid("target", "an item cannot move next to itself")
	}
	var pos service.SitePosition
	anchor := &service.SiteAnchor{Kind: tkind, ID: target}
	switch r.PostFormValue("place") {
	case "before":
		pos.Before = anchor
	case "after":
		pos.After = anchor
	case "inside":
		if pos, err = insidePosition(st, kind, id, tkind, target); err != nil {
			return err
		}
		if pos.After == nil && kind == quire.SiteItemSection && st.SectionByID(id).Section.Group != target {
			// An empty group takes its first section this way.
			if _, err := sites.AddSectionToGroup(ctx, u, orgID, siteID, target, id); err != nil {
				return err
			}
			return siteDone(w, r, "moved")
		}
	default:
		return quire.Invalid("place", "must be before, after or inside")
	}
	if _, err := sites.MoveSiteItem(ctx, u, orgID, siteID, kind, id, pos); err != nil {
		if _, msg, ok := formError(err); ok {
			return quire.Invalid("place", "%s", msg)
		}
		return err
	}
	return siteDone(w, r, "moved")
}

// insidePosition is where an item dropped inside another goes: at the
// end of what the target holds, after its last child. A zero position
// keeps the item where it is, at the end; a section going into an empty
// group gets a zero position too, for the caller to add it to the group.
func insidePosition(st *service.SiteStructure, kind quire.SiteItemKind, id string, tkind quire.SiteItemKind, target string) (service.SitePosition, error) {
	var pos service.SitePosition
	refuse := quire.Invalid("place", "a %s cannot go inside a %s", kindWords(kind), kindWords(tkind))
	switch {
	case kind == quire.SiteItemSpace && tkind == quire.SiteItemSection:
		sec := st.SectionByID(target)
		if st.SiteSpaceByID(id).SiteSpace.Section == target {
			return pos, nil
		}
		if len(sec.SiteSpaces) == 0 {
			return pos, quire.Invalid("place", "the section holds no site space: add the space to it instead")
		}
		pos.After = &service.SiteAnchor{Kind: quire.SiteItemSpace, ID: sec.SiteSpaces[len(sec.SiteSpaces)-1].SiteSpace.ID}
	case kind != quire.SiteItemSpace && tkind == quire.SiteItemGroup:
		g := st.GroupByID(target)
		for _, n := range g.Children {
			if n.Section != nil && n.Section.Section.ID == id || n.Group != nil && n.Group.Group.ID == id {
				return pos, nil
			}
		}
		if len(g.Children) == 0 {
			if kind == quire.SiteItemGroup {
				return pos, quire.Invalid("place", "a section group cannot go inside an empty group")
			}
			return pos, nil
		}
		last := g.Children[len(g.Children)-1]
		if last.Section != nil {
			pos.After = &service.SiteAnchor{Kind: quire.SiteItemSection, ID: last.Section.Section.ID}
		} else {
			pos.After = &service.SiteAnchor{Kind: quire.SiteItemGroup, ID: last.Group.Group.ID}
		}
	default:
		return pos, refuse
	}
	return pos, nil
}

// conditionCheck answers whether a condition (?condition=) would be
// saved on the site, as the condition fields' script asks while it is
// typed: {"message": ""} when it would, else the message naming the
// field and where the error is.
func (a *App) conditionCheck(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	cond := r.URL.Query().Get("condition")
	if len([]rune(cond)) > maxSiteCond {
		err = quire.Invalid("condition", "must be at most %d characters", maxSiteCond)
	} else {
		err = sites.CheckSiteCondition(r.Context(), r.PathValue("organizationId"), r.PathValue("siteId"), "condition", cond)
	}
	out := struct {
		Message string `json:"message"`
	}{}
	if st, ok := siteFormState("", err); ok {
		out.Message = st.Message
	} else if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	return json.NewEncoder(w).Encode(out)
}
