package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
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

// insertSection adds one section and its index entry.
func (s *Store) insertSection(ctx context.Context, spaceID string, sec *quire.SearchSection) error {
	var err error
	if s.dialect.Engine() == EnginePostgres {
		_, err = s.exec(ctx, `INSERT INTO search_sections
			(space_id, page_id, seq, page_title, page_path, anchor, title, body, doc)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?,
				setweight(to_tsvector('english', ?), 'A') || setweight(to_tsvector('english', ?), 'B'))`,
			spaceID, sec.PageID, sec.Seq, sec.PageTitle, sec.PagePath, sec.Anchor, sec.Title, sec.Body,
			sec.IndexTitle, sec.IndexBody)
	} else {
		var id int64
		q := s.dialect.Rebind(`INSERT INTO search_sections
			(space_id, page_id, seq, page_title, page_path, anchor, title, body)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
		s.stats.statements.Add(1)
		err = s.writer().QueryRowContext(ctx, q, spaceID, sec.PageID, sec.Seq, sec.PageTitle, sec.PagePath,
			sec.Anchor, sec.Title, sec.Body).Scan(&id)
		if err == nil {
			_, err = s.exec(ctx, "INSERT INTO search_fts (rowid, space_id, title, body) VALUES (?, ?, ?, ?)",
				id, spaceID, sec.IndexTitle, sec.IndexBody)
		}
	}
	if s.dialect.Classify(err) == FailForeignKey {
		return quire.NotFound("space")
	}
	return wrap("index search section", err)
}

// SearchSections runs a query over the sections of the spaces listed
// (the caller lists live ones), best first: all terms required, title hits weighing more than
// body hits.
func (s *Store) SearchSections(ctx context.Context, q quire.SearchQuery) ([]*quire.SearchHit, error) {
	if len(q.Terms) == 0 || len(q.SpaceIDs) == 0 {
		return nil, nil
	}
	limit := q.Limit
	if limit <= 0 {
		limit = quire.DefaultLimit
	}
	var spaceCond string
	var spaceArg any
	if len(q.SpaceIDs) == 1 {
		spaceCond, spaceArg = "s.space_id = ?", q.SpaceIDs[0]
		if s.dialect.Engine() != EnginePostgres {
			spaceCond = "search_fts.space_id = ?"
		}
	} else {
		b, err := json.Marshal(q.SpaceIDs)
		if err != nil {
			return nil, err
		}
		spaceArg = string(b)
		if s.dialect.Engine() == EnginePostgres {
			spaceCond = "s.space_id IN (SELECT jsonb_array_elements_text(CAST(? AS jsonb)))"
		} else {
			spaceCond = "search_fts.space_id IN (SELECT value FROM json_each(?))"
		}
	}
	const cols = "s.space_id, s.page_id, s.seq, s.page_title, s.page_path, s.anchor, s.title, s.body"
	var stmt string
	var args []any
	if s.dialect.Engine() == EnginePostgres {
		stmt = `SELECT ` + cols + ` FROM search_sections s
			WHERE s.doc @@ to_tsquery('english', ?) AND ` + spaceCond + `
			ORDER BY ts_rank(s.doc, to_tsquery('english', ?)) DESC, s.page_id, s.seq LIMIT ?`
		tq := tsQuery(q.Terms)
		args = []any{tq, spaceArg, tq, limit}
	} else {
		// The index ranks and cuts inside itself; only the best rows
		// are joined to their sections.
		stmt = `SELECT ` + cols + ` FROM (
				SELECT rowid AS id, rank FROM search_fts
				WHERE search_fts MATCH ? AND ` + spaceCond + ` AND rank MATCH 'bm25(0.0, 10.0, 1.0)'
				ORDER BY rank LIMIT ?) m
			JOIN search_sections s ON s.id = m.id
			ORDER BY m.rank, s.page_id, s.seq`
		args = []any{ftsQuery(q.Terms), spaceArg, limit}
	}
	rows, err := s.query(ctx, stmt, args...)
	if err != nil {
		return nil, wrap("search", err)
	}
	defer rows.Close()
	var out []*quire.SearchHit
	for rows.Next() {
		h := &quire.SearchHit{}
		if err := rows.Scan(&h.SpaceID, &h.PageID, &h.Seq, &h.PageTitle, &h.PagePath, &h.Anchor, &h.Title, &h.Body); err != nil {
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
