package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"quire/internal/quire"
)

// groupCols, sectionCols and siteSpaceCols are the columns of the site
// structure tables, in their scan functions' order.
const (
	groupCols     = `id, site_id, parent_id, title, icon, position, created_at`
	sectionCols   = `id, site_id, group_id, title, path, description, icon, condition, default_site_space_id, position, created_at`
	siteSpaceCols = `id, site_id, section_id, space_id, path, condition, position, created_at`
)

func scanGroup(sc scanner) (*quire.SiteSectionGroup, error) {
	var (
		g       quire.SiteSectionGroup
		parent  sql.NullString
		created int64
	)
	if err := sc.Scan(&g.ID, &g.SiteID, &parent, &g.Title, &g.Icon, &g.Position, &created); err != nil {
		return nil, err
	}
	g.Parent, g.CreatedAt = parent.String, fromMillis(created)
	return &g, nil
}

func scanSection(sc scanner) (*quire.SiteSection, error) {
	var (
		s            quire.SiteSection
		group, deflt sql.NullString
		created      int64
	)
	err := sc.Scan(&s.ID, &s.SiteID, &group, &s.Title, &s.Path, &s.Description, &s.Icon, &s.Condition, &deflt, &s.Position, &created)
	if err != nil {
		return nil, err
	}
	s.Group, s.DefaultSiteSpace, s.CreatedAt = group.String, deflt.String, fromMillis(created)
	return &s, nil
}

func scanSiteSpace(sc scanner) (*quire.SiteSpace, error) {
	var (
		s       quire.SiteSpace
		section sql.NullString
		created int64
	)
	if err := sc.Scan(&s.ID, &s.SiteID, &section, &s.SpaceID, &s.Path, &s.Condition, &s.Position, &created); err != nil {
		return nil, err
	}
	s.Section, s.CreatedAt = section.String, fromMillis(created)
	return &s, nil
}

// SiteTree reads a site's groups, sections and site spaces, each in
// position order, and the spaces they publish.
func (s *Store) SiteTree(ctx context.Context, siteID string) (*quire.SiteTree, error) {
	var (
		t   quire.SiteTree
		err error
	)
	if t.Groups, err = fetchAll(ctx, s, "SELECT "+groupCols+" FROM site_section_groups WHERE site_id = ? ORDER BY position, id", []any{siteID}, scanGroup); err != nil {
		return nil, wrap("site tree", err)
	}
	if t.Sections, err = fetchAll(ctx, s, "SELECT "+sectionCols+" FROM site_sections WHERE site_id = ? ORDER BY position, id", []any{siteID}, scanSection); err != nil {
		return nil, wrap("site tree", err)
	}
	if t.SiteSpaces, err = fetchAll(ctx, s, "SELECT "+siteSpaceCols+" FROM site_spaces WHERE site_id = ? ORDER BY position, id", []any{siteID}, scanSiteSpace); err != nil {
		return nil, wrap("site tree", err)
	}
	if t.Spaces, err = fetchAll(ctx, s, "SELECT "+spaceCols+" FROM spaces s WHERE s.id IN (SELECT ss.space_id FROM site_spaces ss WHERE ss.site_id = ?) ORDER BY s.id", []any{siteID}, scanSpace); err != nil {
		return nil, wrap("site tree", err)
	}
	return &t, nil
}

// parentCond is the condition on a parent column: NULL for the root.
func parentCond(col, parent string, args []any) (string, []any) {
	if parent == "" {
		return col + " IS NULL", args
	}
	return col + " = ?", append(args, parent)
}

// LastSitePosition returns the highest position among the items of kind
// under parent, each table read by one descent of its (site, parent,
// position) index to its last entry.
func (s *Store) LastSitePosition(ctx context.Context, siteID string, kind quire.SiteItemKind, parent string) (string, error) {
	var q string
	var args []any
	switch kind {
	case quire.SiteItemSpace:
		cond, a := parentCond("section_id", parent, []any{siteID})
		q, args = `SELECT (SELECT position FROM site_spaces WHERE site_id = ? AND `+cond+` ORDER BY position DESC LIMIT 1), NULL`, a
	default:
		cond, a := parentCond("group_id", parent, []any{siteID})
		gcond, a2 := parentCond("parent_id", parent, []any{siteID})
		q = `SELECT (SELECT position FROM site_sections WHERE site_id = ? AND ` + cond + ` ORDER BY position DESC LIMIT 1),
			(SELECT position FROM site_section_groups WHERE site_id = ? AND ` + gcond + ` ORDER BY position DESC LIMIT 1)`
		args = append(a, a2...)
	}
	var p1, p2 sql.NullString
	if err := s.queryRow(ctx, q, args...).Scan(&p1, &p2); err != nil {
		return "", wrap("last site position", err)
	}
	return max(p1.String, p2.String), nil
}

// SitePathsLike returns the paths equal to base or starting with base and
// a dash: among a section's (or the root's) site spaces, or among all the
// site's sections.
func (s *Store) SitePathsLike(ctx context.Context, siteID string, kind quire.SiteItemKind, parent, base string) ([]string, error) {
	like := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(base) + "-%"
	var q string
	args := []any{siteID}
	if kind == quire.SiteItemSpace {
		var cond string
		cond, args = parentCond("section_id", parent, args)
		q = "SELECT path FROM site_spaces WHERE site_id = ? AND " + cond
	} else {
		q = "SELECT path FROM site_sections WHERE site_id = ?"
	}
	q += ` AND (path = ? OR path LIKE ? ESCAPE '\')`
	paths, err := fetchAll(ctx, s, q, append(args, base, like), scanString)
	return paths, wrap("site paths", err)
}

// CreateSiteSectionGroup stores a section group.
func (s *Store) CreateSiteSectionGroup(ctx context.Context, g *quire.SiteSectionGroup) error {
	_, err := s.exec(ctx, "INSERT INTO site_section_groups ("+groupCols+") VALUES (?, ?, ?, ?, ?, ?, ?)",
		g.ID, g.SiteID, nullString(g.Parent), g.Title, g.Icon, g.Position, millis(g.CreatedAt))
	if err != nil {
		return s.conflict("create section group", err, "a section group with this id already exists")
	}
	return nil
}

// UpdateSiteSectionGroup sets a group's title and icon.
func (s *Store) UpdateSiteSectionGroup(ctx context.Context, g *quire.SiteSectionGroup) error {
	var set setter
	set.add("title", g.Title)
	set.add("icon", g.Icon)
	return wrap("update section group", s.update(ctx, "site_section_groups", "id = ?", []any{g.ID}, set, "section group"))
}

// DeleteSiteSectionGroup deletes a group; groups inside it go with it and
// sections inside fall to the root.
func (s *Store) DeleteSiteSectionGroup(ctx context.Context, id string) (bool, error) {
	n, err := s.exec(ctx, "DELETE FROM site_section_groups WHERE id = ?", id)
	return n > 0, wrap("delete section group", err)
}

// CreateSiteSection stores a section. Returns ECONFLICT when the path is
// taken.
func (s *Store) CreateSiteSection(ctx context.Context, sec *quire.SiteSection) error {
	_, err := s.exec(ctx, "INSERT INTO site_sections ("+sectionCols+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		sec.ID, sec.SiteID, nullString(sec.Group), sec.Title, sec.Path, sec.Description, sec.Icon, sec.Condition,
		nullString(sec.DefaultSiteSpace), sec.Position, millis(sec.CreatedAt))
	if err != nil {
		return s.conflict("create section", err, "path: another section of the site already uses this path")
	}
	return nil
}

// UpdateSiteSection applies the non-nil fields of upd.
func (s *Store) UpdateSiteSection(ctx context.Context, id string, upd quire.SiteSectionUpdate) error {
	var set setter
	setIf(&set, "title", upd.Title)
	setIf(&set, "path", upd.Path)
	setIf(&set, "description", upd.Description)
	setIf(&set, "icon", upd.Icon)
	setIf(&set, "condition", upd.Condition)
	if upd.DefaultSiteSpace != nil {
		set.add("default_site_space_id", nullString(*upd.DefaultSiteSpace))
	}
	err := s.update(ctx, "site_sections", "id = ?", []any{id}, set, "section")
	return s.conflict("update section", err, "path: another section of the site already uses this path")
}

// DeleteSiteSection deletes a section; its site spaces go with it by
// cascade.
func (s *Store) DeleteSiteSection(ctx context.Context, id string) (bool, error) {
	n, err := s.exec(ctx, "DELETE FROM site_sections WHERE id = ?", id)
	return n > 0, wrap("delete section", err)
}

// CreateSiteSpace stores a site space.
func (s *Store) CreateSiteSpace(ctx context.Context, ss *quire.SiteSpace) error {
	_, err := s.exec(ctx, "INSERT INTO site_spaces ("+siteSpaceCols+") VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
		ss.ID, ss.SiteID, nullString(ss.Section), ss.SpaceID, ss.Path, ss.Condition, ss.Position, millis(ss.CreatedAt))
	if err != nil {
		return s.conflict("create site space", err, "path: another site space next to it already uses this path")
	}
	return nil
}

// UpdateSiteSpace applies the non-nil fields of upd.
func (s *Store) UpdateSiteSpace(ctx context.Context, id string, upd quire.SiteSpaceUpdate) error {
	var set setter
	setIf(&set, "path", upd.Path)
	setIf(&set, "condition", upd.Condition)
	setIf(&set, "space_id", upd.SpaceID)
	err := s.update(ctx, "site_spaces", "id = ?", []any{id}, set, "site space")
	return s.conflict("update site space", err, "path: another site space next to it already uses this path")
}

// DeleteSiteSpace deletes a site space.
func (s *Store) DeleteSiteSpace(ctx context.Context, id string) (bool, error) {
	n, err := s.exec(ctx, "DELETE FROM site_spaces WHERE id = ?", id)
	return n > 0, wrap("delete site space", err)
}

// PlaceSiteItem sets an item's parent and position.
func (s *Store) PlaceSiteItem(ctx context.Context, kind quire.SiteItemKind, id, parent, position string) error {
	var table, col, what string
	switch kind {
	case quire.SiteItemSpace:
		table, col, what = "site_spaces", "section_id", "site space"
	case quire.SiteItemSection:
		table, col, what = "site_sections", "group_id", "section"
	case quire.SiteItemGroup:
		table, col, what = "site_section_groups", "parent_id", "section group"
	default:
		return fmt.Errorf("sqlstore: place site item: unknown kind %q", kind)
	}
	var set setter
	set.add(col, nullString(parent))
	set.add("position", position)
	err := s.update(ctx, table, "id = ?", []any{id}, set, what)
	return s.conflict("place site item", err, "path: an item at the destination already uses this path")
}
