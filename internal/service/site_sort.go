package service

import (
	"context"
	"slices"
	"strings"

	"quire/internal/quire"
)

// SiteAnchor names an item of a site's structure that a moved item goes
// next to.
type SiteAnchor struct {
	Kind quire.SiteItemKind
	ID   string
}

// SitePosition is where a moved item goes: before an item, after one, or
// between two; with neither, at the end of where it is.
type SitePosition struct {
	Before *SiteAnchor
	After  *SiteAnchor
}

// MoveSiteItem moves a site space, section or section group next to the
// anchors of pos, which also decide where it goes: a site space may move
// to another section, a section into or out of a group, a group into a
// group at the root when it holds no groups itself. Anchors that are not
// items of the right kinds, not next to each other, or a place the item
// cannot go are EINVALID; an item not in the site is ENOTFOUND.
func (s *Sites) MoveSiteItem(ctx context.Context, u *quire.User, orgID, siteID string, kind quire.SiteItemKind, id string, pos SitePosition) (*SiteItemResult, error) {
	return s.siteWrite(ctx, u, orgID, siteID, func(st quire.Store, site *quire.Site) (string, error) {
		tree, err := st.SiteTree(ctx, site.ID)
		if err != nil {
			return "", err
		}
		from, self, ok := itemPlace(tree, kind, id)
		if !ok {
			return "", quire.NotFound(strings.ReplaceAll(string(kind), "-", " "))
		}
		dest := from
		anchors := map[string]*SiteAnchor{"before": pos.Before, "after": pos.After}
		seen := false
		for _, field := range []string{"before", "after"} {
			a := anchors[field]
			if a == nil {
				continue
			}
			if (kind == quire.SiteItemSpace) != (a.Kind == quire.SiteItemSpace) {
				return "", quire.Invalid("position."+field, "invalid position: a %s moves among %s", kind, siblingWords(kind))
			}
			parent, _, ok := itemPlace(tree, a.Kind, a.ID)
			if !ok {
				return "", quire.Invalid("position."+field, "invalid position: %s %s is not in this site", a.Kind, a.ID)
			}
			if seen && parent != dest {
				return "", quire.Invalid("position", "invalid position: the after and before anchors are not adjacent")
			}
			dest, seen = parent, true
		}
		if err := checkDestination(tree, kind, id, dest); err != nil {
			return "", err
		}
		var key string
		if !seen {
			if key, err = lastSiteKey(ctx, st, site.ID, kind, dest); err != nil {
				return "", err
			}
		} else {
			p := Position{}
			if pos.Before != nil {
				p.Before = NewAnchor(quire.SiblingKind(pos.Before.Kind), pos.Before.ID)
			}
			if pos.After != nil {
				p.After = NewAnchor(quire.SiblingKind(pos.After.Kind), pos.After.ID)
			}
			if key, _, err = placement(siteSiblings(tree, kind, dest), self, p); err != nil {
				return "", err
			}
		}
		return id, st.PlaceSiteItem(ctx, kind, id, dest, key)
	})
}

// siblingWords names what an item of kind moves among.
func siblingWords(kind quire.SiteItemKind) string {
	if kind == quire.SiteItemSpace {
		return "site spaces"
	}
	return "sections and section groups"
}

// itemPlace returns the parent of an item (its section, or its group) and
// the item as a sibling.
func itemPlace(tree *quire.SiteTree, kind quire.SiteItemKind, id string) (string, quire.Sibling, bool) {
	sib := quire.Sibling{Kind: quire.SiblingKind(kind), ID: id}
	switch kind {
	case quire.SiteItemSpace:
		if ss := findSiteSpace(tree, id); ss != nil {
			sib.Position = ss.Position
			return ss.Section, sib, true
		}
	case quire.SiteItemSection:
		if sec := findSection(tree, id); sec != nil {
			sib.Position = sec.Position
			return sec.Group, sib, true
		}
	case quire.SiteItemGroup:
		if g := findGroup(tree, id); g != nil {
			sib.Position = g.Position
			return g.Parent, sib, true
		}
	}
	return "", sib, false
}

// checkDestination refuses places an item cannot go: a site space next to
// one with its path, a group inside itself or deeper than one level.
func checkDestination(tree *quire.SiteTree, kind quire.SiteItemKind, id, dest string) error {
	switch kind {
	case quire.SiteItemSpace:
		ss := findSiteSpace(tree, id)
		if ss.Section == dest {
			return nil
		}
		for _, o := range tree.SiteSpaces {
			if o.Section == dest && o.Path == ss.Path {
				return quire.Invalid("position", "invalid position: a site space there already uses the path %q", ss.Path)
			}
		}
	case quire.SiteItemGroup:
		if dest == "" {
			return nil
		}
		if dest == id {
			return quire.Invalid("position", "invalid position: a section group cannot go inside itself")
		}
		if p := findGroup(tree, dest); p != nil && p.Parent != "" {
			return quire.Invalid("position", "invalid position: section groups nest only once")
		}
		for _, g := range tree.Groups {
			if g.Parent == id {
				return quire.Invalid("position", "invalid position: a section group holding groups stays at the root")
			}
		}
	}
	return nil
}

// siteSiblings lists the items under parent that an item of kind moves
// among, in order.
func siteSiblings(tree *quire.SiteTree, kind quire.SiteItemKind, parent string) []quire.Sibling {
	var out []quire.Sibling
	if kind == quire.SiteItemSpace {
		for _, ss := range tree.SiteSpaces {
			if ss.Section == parent {
				out = append(out, quire.Sibling{Kind: quire.SiblingKind(quire.SiteItemSpace), ID: ss.ID, Position: ss.Position})
			}
		}
		return out
	}
	for _, sec := range tree.Sections {
		if sec.Group == parent {
			out = append(out, quire.Sibling{Kind: quire.SiblingKind(quire.SiteItemSection), ID: sec.ID, Position: sec.Position})
		}
	}
	for _, g := range tree.Groups {
		if g.Parent == parent {
			out = append(out, quire.Sibling{Kind: quire.SiblingKind(quire.SiteItemGroup), ID: g.ID, Position: g.Position})
		}
	}
	sortSiblings(out)
	return out
}

// sortSiblings orders siblings by position, then id.
func sortSiblings(list []quire.Sibling) {
	slices.SortStableFunc(list, func(a, b quire.Sibling) int {
		if c := strings.Compare(a.Position, b.Position); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}
