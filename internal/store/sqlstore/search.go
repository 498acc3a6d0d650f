package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"quire/internal/quire"
)

// SearchIndexRevision returns the revision of the space the index holds.
func (s *Store) SearchIndexRevision(ctx context.Context, spaceID string) (string, error) {
	var rev string
	err := s.queryRow(ctx, "SELECT revision FROM search_spaces WHERE space_id = ?", spaceID).Scan(&rev)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return rev, wrap("get search index revision", err)
}

// ReplaceSearchPages replaces the indexed sections of some pages (all of
// the space's when all is set) in one transaction, if the index still
// holds revision from, and records revision to. A space that is gone is
// ENOTFOUND.
func (s *Store) ReplaceSearchPages(ctx context.Context, spaceID, from, to string, all bool, pageIDs []string, sections []quire.SearchSection) error {
	return s.WithTx(ctx, func(qs quire.Store) error {
		t := qs.(*Store)
		if err := t.swapSearchRevision(ctx, spaceID, from, to); err != nil {
			return err
		}
		if all {
			if _, err := t.exec(ctx, "DELETE FROM search_sections WHERE space_id = ?", spaceID); err != nil {
				return wrap("clear search index", err)
			}
		} else {
			for _, id := range pageIDs {
				if _, err := t.exec(ctx, "DELETE FROM search_sections WHERE space_id = ? AND page_id = ?", spaceID, id); err != nil {
					return wrap("remove search page", err)
				}
			}
		}
		for i := range sections {
			if err := t.insertSection(ctx, spaceID, &sections[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// swapSearchRevision moves the space's indexed revision from one to
// another by compare-and-swap; the row's lock is held until the
// transaction ends.
func (s *Store) swapSearchRevision(ctx context.Context, spaceID, from, to string) error {
	if from != "" {
		n, err := s.exec(ctx, "UPDATE search_spaces SET revision = ? WHERE space_id = ? AND revision = ?", to, spaceID, from)
		if err != nil {
			return wrap("record search index revision", err)
		}
		if n == 0 {
			return quire.Stale("the search index of the space changed meanwhile")
		}
		return nil
	}
	_, err := s.exec(ctx, "INSERT INTO search_spaces (space_id, revision) VALUES (?, ?)", spaceID, to)
	switch s.dialect.Classify(err) {
	case FailForeignKey:
		return quire.NotFound("space")
	case FailUnique:
		return quire.Stale("the search index of the space changed meanwhile")
	}
	return wrap("record search index revision", err)
}

// How a search section's index entry is made from its folded title and
// body (quire.SearchSection's IndexTitle and IndexBody); a restore
// rebuilds the index the same way.
const (
	// SearchDocSQL is PostgreSQL's search_sections.doc, of the folded
	// title and body.
	SearchDocSQL = "setweight(to_tsvector('english', ?), 'A') || setweight(to_tsvector('english', ?), 'B')"
	// SearchTitleDocSQL is PostgreSQL's search_sections.title_doc, of the
	// folded title.
	SearchTitleDocSQL = "to_tsvector('english', ?)"
	// SearchFTSInsert adds SQLite's index entry of a section: its id, the
	// space, the folded title and body.
	SearchFTSInsert = "INSERT INTO search_fts (rowid, space_id, title, body) VALUES (?, ?, ?, ?)"
)

// insertSection adds one section and its index entry.
func (s *Store) insertSection(ctx context.Context, spaceID string, sec *quire.SearchSection) error {
	var err error
	if s.dialect.Engine() == EnginePostgres {
		_, err = s.exec(ctx, `INSERT INTO search_sections
			(space_id, page_id, seq, page_title, page_path, anchor, title, body, doc, title_doc)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, `+SearchDocSQL+`, `+SearchTitleDocSQL+`)`,
			spaceID, sec.PageID, sec.Seq, sec.PageTitle, sec.PagePath, sec.Anchor, sec.Title, sec.Body,
			sec.IndexTitle, sec.IndexBody, sec.IndexTitle)
	} else {
		var id int64
		err = s.writeRow(ctx, `INSERT INTO search_sections
			(space_id, page_id, seq, page_title, page_path, anchor, title, body)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, spaceID, sec.PageID, sec.Seq, sec.PageTitle, sec.PagePath,
			sec.Anchor, sec.Title, sec.Body).Scan(&id)
		if err == nil {
			_, err = s.exec(ctx, SearchFTSInsert, id, spaceID, sec.IndexTitle, sec.IndexBody)
		}
	}
	if s.dialect.Classify(err) == FailForeignKey {
		return quire.NotFound("space")
	}
	return wrap("index search section", err)
}

// SearchSections runs a query over the sections of the spaces listed
// (the caller lists live ones), best first: all terms required, title
// hits weighing more than body hits.
func (s *Store) SearchSections(ctx context.Context, q quire.SearchQuery) ([]*quire.SearchHit, error) {
	if len(q.Terms) == 0 || len(q.SpaceIDs) == 0 {
		return nil, nil
	}
	if q.Limit <= 0 {
		q.Limit = quire.DefaultLimit
	}
	if s.dialect.Engine() != EnginePostgres {
		return s.searchSQLite(ctx, q)
	}
	// The statements are prepared once and cached; a plan made for any
	// query text (PostgreSQL's generic plan, chosen after a few runs)
	// cannot tell a rare word from a common one, and with a LIMIT it
	// scans the whole table for a rare word. Plans made for each query's
	// own text keep the GIN index; and the index is always the way in,
	// also where a LIMIT makes a scan of the table look cheaper (it is
	// not, for a word of middling frequency).
	var out []*quire.SearchHit
	err := s.WithTx(ctx, func(qs quire.Store) error {
		t := qs.(*Store)
		for _, set := range []string{"SET LOCAL plan_cache_mode = force_custom_plan", "SET LOCAL enable_seqscan = off"} {
			if _, err := t.exec(ctx, set); err != nil {
				return wrap("search", err)
			}
		}
		var err error
		out, err = t.searchPostgres(ctx, q)
		return err
	})
	return out, err
}

// searchCols are the columns scanHits reads, for search_sections as s.
const searchCols = "s.id, s.space_id, s.page_id, s.seq, s.page_title, s.page_path, s.anchor, s.title, s.body"

// searchPostgres ranks the matching sections with ts_rank, at most
// searchRankCap of them, as searchSQLite does; beyond, the title matches
// come from title_doc.
func (s *Store) searchPostgres(ctx context.Context, q quire.SearchQuery) ([]*quire.SearchHit, error) {
	inSpaces, spaces, err := s.inList("s.space_id", q.SpaceIDs)
	if err != nil {
		return nil, err
	}
	tq := tsQuery(q.Terms)
	pick := func(col string) ([]*rowHit, bool, error) {
		where := `s.` + col + ` @@ to_tsquery('english', ?)
			AND ` + inSpaces
		n, err := s.count(ctx, `SELECT count(*) FROM (SELECT 1 FROM search_sections s WHERE `+where+` LIMIT ?) x`,
			tq, spaces, searchRankCap+1)
		if err != nil {
			return nil, false, wrap("search", err)
		}
		if n <= searchRankCap {
			hits, err := s.scanHits(ctx, `SELECT `+searchCols+` FROM search_sections s WHERE `+where+`
				ORDER BY ts_rank(s.`+col+`, to_tsquery('english', ?)) DESC, s.page_id, s.seq LIMIT ?`,
				tq, spaces, tq, q.Limit)
			return hits, false, err
		}
		// In the index's order: the first rows the bitmap gives.
		hits, err := s.scanHits(ctx, `SELECT `+searchCols+` FROM search_sections s WHERE `+where+`
			LIMIT ?`, tq, spaces, q.Limit)
		return hits, true, err
	}
	hits, many, err := pick("doc")
	if err != nil {
		return nil, err
	}
	if many {
		titled, _, err := pick("title_doc")
		if err != nil {
			return nil, err
		}
		hits = mergeHits(titled, hits, q.Limit)
	}
	out := make([]*quire.SearchHit, len(hits))
	for i, h := range hits {
		out[i] = &h.SearchHit
	}
	return out, nil
}

// mergeHits returns first, then those of rest not in first, up to limit.
func mergeHits(first, rest []*rowHit, limit int) []*rowHit {
	seen := make(map[int64]bool, len(first))
	for _, h := range first {
		seen[h.id] = true
	}
	for _, h := range rest {
		if len(first) >= limit {
			break
		}
		if !seen[h.id] {
			first = append(first, h)
		}
	}
	return first
}

// searchRankCap is how many matches SQLite ranks at most: a query
// matching more (a common word over a large index) ranks its title
// matches alone, and gives its other matches in index order after them,
// so that its cost stays bounded.
const searchRankCap = 500

// searchSQLite ranks the matching sections inside FTS5, then reads the
// sections of the best.
func (s *Store) searchSQLite(ctx context.Context, q quire.SearchQuery) ([]*quire.SearchHit, error) {
	var spaceCond string
	var spaceArg any = q.SpaceIDs[0]
	if len(q.SpaceIDs) == 1 {
		spaceCond = "space_id = ?"
	} else {
		var err error
		if spaceCond, spaceArg, err = s.inList("space_id", q.SpaceIDs); err != nil {
			return nil, err
		}
	}
	// pick returns the best matches, ranked when there are few enough,
	// and whether there were too many to rank.
	pick := func(match string) ([]int64, bool, error) {
		n, err := s.count(ctx, `SELECT count(*) FROM (SELECT rowid FROM search_fts WHERE search_fts MATCH ? LIMIT ?)`,
			match, searchRankCap+1)
		if err != nil {
			return nil, false, wrap("search", err)
		}
		if n <= searchRankCap {
			ids, err := s.rowids(ctx, `SELECT rowid FROM search_fts WHERE search_fts MATCH ? AND `+spaceCond+`
				AND rank MATCH 'bm25(0.0, 10.0, 1.0)' ORDER BY rank, rowid LIMIT ?`, match, spaceArg, q.Limit)
			return ids, false, err
		}
		ids, err := s.rowids(ctx, `SELECT rowid FROM search_fts WHERE search_fts MATCH ? AND `+spaceCond+`
			ORDER BY rowid LIMIT ?`, match, spaceArg, q.Limit)
		return ids, true, err
	}
	terms := ftsQuery(q.Terms)
	ids, many, err := pick(terms)
	if err != nil {
		return nil, err
	}
	if many {
		titled, _, err := pick("title : (" + terms + ")")
		if err != nil {
			return nil, err
		}
		seen := make(map[int64]bool, len(titled))
		for _, id := range titled {
			seen[id] = true
		}
		for _, id := range ids {
			if len(titled) >= q.Limit {
				break
			}
			if !seen[id] {
				titled = append(titled, id)
			}
		}
		ids = titled
	}
	if len(ids) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	hits, err := s.scanHits(ctx, `SELECT `+searchCols+` FROM search_sections s
		WHERE s.id IN (SELECT value FROM json_each(?))`, string(b))
	if err != nil {
		return nil, err
	}
	at := make(map[int64]int, len(ids))
	for i, id := range ids {
		at[id] = i
	}
	out := make([]*quire.SearchHit, len(ids))
	for _, h := range hits {
		out[at[h.id]] = &h.SearchHit
	}
	return slices.DeleteFunc(out, func(h *quire.SearchHit) bool { return h == nil }), nil
}

// rowids runs a query returning index row ids.
func (s *Store) rowids(ctx context.Context, q string, args ...any) ([]int64, error) {
	rows, err := s.query(ctx, q, args...)
	if err != nil {
		return nil, wrap("search", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, wrap("search", err)
		}
		out = append(out, id)
	}
	return out, wrap("search", rows.Err())
}

// rowHit is a hit with the id of its section row.
type rowHit struct {
	id int64
	quire.SearchHit
}

// scanHits runs a query reading searchCols.
func (s *Store) scanHits(ctx context.Context, q string, args ...any) ([]*rowHit, error) {
	rows, err := s.query(ctx, q, args...)
	if err != nil {
		return nil, wrap("search", err)
	}
	defer rows.Close()
	var out []*rowHit
	for rows.Next() {
		h := &rowHit{}
		if err := rows.Scan(&h.id, &h.SpaceID, &h.PageID, &h.Seq, &h.PageTitle, &h.PagePath, &h.Anchor, &h.Title, &h.Body); err != nil {
			return nil, wrap("search", err)
		}
		out = append(out, h)
	}
	return out, wrap("search", rows.Err())
}

// ftsQuery writes terms as an FTS5 query: quoted phrases, all required,
// a prefix star on those that ask for it. Terms hold letters and digits
// only; quotes are doubled all the same.
func ftsQuery(terms []quire.SearchTerm) string {
	var b strings.Builder
	for i, t := range terms {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte('"')
		b.WriteString(strings.ReplaceAll(strings.Join(t.Words, " "), `"`, `""`))
		b.WriteByte('"')
		if t.Prefix {
			b.WriteByte('*')
		}
	}
	return b.String()
}

// tsQuery writes terms as a PostgreSQL tsquery: quoted lexemes, phrases
// joined by <->, terms by &, :* on a prefix term's last word.
func tsQuery(terms []quire.SearchTerm) string {
	var b strings.Builder
	for i, t := range terms {
		if i > 0 {
			b.WriteString(" & ")
		}
		b.WriteByte('(')
		for j, w := range t.Words {
			if j > 0 {
				b.WriteString(" <-> ")
			}
			b.WriteByte('\'')
			b.WriteString(strings.ReplaceAll(strings.ReplaceAll(w, `\`, `\\`), "'", "''"))
			b.WriteByte('\'')
			if t.Prefix && j == len(t.Words)-1 {
				b.WriteString(":*")
			}
		}
		b.WriteByte(')')
	}
	return b.String()
}
