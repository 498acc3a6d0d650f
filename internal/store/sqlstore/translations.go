package sqlstore

import (
	"context"
	"database/sql"
	"errors"

	"quire/internal/quire"
)

// translationCols are the columns of translations in scanTranslation's
// order.
const translationCols = `t.id, t.org_id, t.source_space, t.source_language, t.language, t.instructions, t.target_space,
	t.state, t.source_revision, t.result_revision, t.error, t.edited_pages, t.translated_pages,
	t.runs, t.total_words, t.total_duration_ms, t.latest_duration_ms, t.latest_pages, t.latest_words,
	t.created_by, t.created_at, t.updated_at`

// translationConflict is the message of a second translation of a space
// into one language.
const translationConflict = "the source space already has a translation into this language"

// scanTranslation reads a row of translationCols.
func scanTranslation(sc scanner) (*quire.Translation, error) {
	var (
		t                   quire.Translation
		instructions, state string
		edited, translated  string
		created, updated    int64
	)
	err := sc.Scan(&t.ID, &t.OrgID, &t.SourceSpace, &t.SourceLanguage, &t.Language, &instructions, &t.TargetSpace,
		&state, &t.SourceRevision, &t.ResultRevision, &t.Error, &edited, &translated,
		&t.Runs, &t.TotalWords, &t.TotalDuration, &t.LatestDuration, &t.LatestPages, &t.LatestWords,
		&t.CreatedBy, &created, &updated)
	if err != nil {
		return nil, err
	}
	if instructions != "" {
		t.Instructions = []byte(instructions)
	}
	t.State = quire.TranslationState(state)
	t.CreatedAt, t.UpdatedAt = fromMillis(created), fromMillis(updated)
	if t.EditedPages, err = decodeStrings(edited); err != nil {
		return nil, err
	}
	if t.TranslatedPages, err = decodeStrings(translated); err != nil {
		return nil, err
	}
	return &t, nil
}

// CreateTranslation stores a new translation.
func (s *Store) CreateTranslation(ctx context.Context, t *quire.Translation) error {
	_, err := s.exec(ctx, `INSERT INTO translations (id, org_id, source_space, source_language, language, instructions,
		target_space, state, source_revision, result_revision, error, edited_pages, translated_pages,
		runs, total_words, total_duration_ms, latest_duration_ms, latest_pages, latest_words, created_by, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		t.ID, t.OrgID, t.SourceSpace, t.SourceLanguage, t.Language, string(t.Instructions), t.TargetSpace,
		string(t.State), t.SourceRevision, t.ResultRevision, t.Error, encodeStrings(t.EditedPages), encodeStrings(t.TranslatedPages),
		t.Runs, t.TotalWords, t.TotalDuration, t.LatestDuration, t.LatestPages, t.LatestWords,
		t.CreatedBy, millis(t.CreatedAt), millis(t.UpdatedAt))
	if err != nil {
		return s.conflict("create translation", err, translationConflict)
	}
	return nil
}

// Translation returns a translation of an organization.
func (s *Store) Translation(ctx context.Context, orgID, id string) (*quire.Translation, error) {
	t, err := scanTranslation(s.queryRow(ctx, "SELECT "+translationCols+" FROM translations t WHERE t.org_id = ? AND t.id = ?", orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("translation")
	}
	return t, wrap("get translation", err)
}

// Translations lists an organization's translations, oldest first.
func (s *Store) Translations(ctx context.Context, orgID string, p quire.Page) (*quire.List[*quire.Translation], error) {
	const tag = "tr"
	var w filter
	w.add("t.org_id = ?", orgID)
	count, err := s.count(ctx, "SELECT COUNT(*) FROM translations t"+w.where(), w.args...)
	if err != nil {
		return nil, wrap("list translations", err)
	}
	if err := seekCreated(&w, p.Cursor, tag); err != nil {
		return nil, err
	}
	q := "SELECT " + translationCols + " FROM translations t" + w.where() + " ORDER BY t.created_at, t.id"
	items, more, err := fetchPage(ctx, s, q, w.args, p.Size(), scanTranslation)
	if err != nil {
		return nil, wrap("list translations", err)
	}
	return newList(items, more, count, func(t *quire.Translation) string {
		return encodeCursor(tag, millis(t.CreatedAt), t.ID)
	}), nil
}

// PutTranslation writes every field of an existing translation.
func (s *Store) PutTranslation(ctx context.Context, t *quire.Translation) error {
	n, err := s.exec(ctx, `UPDATE translations SET source_language = ?, language = ?, instructions = ?, target_space = ?,
		state = ?, source_revision = ?, result_revision = ?, error = ?, edited_pages = ?, translated_pages = ?,
		runs = ?, total_words = ?, total_duration_ms = ?, latest_duration_ms = ?, latest_pages = ?, latest_words = ?,
		updated_at = ? WHERE org_id = ? AND id = ?`,
		t.SourceLanguage, t.Language, string(t.Instructions), t.TargetSpace,
		string(t.State), t.SourceRevision, t.ResultRevision, t.Error, encodeStrings(t.EditedPages), encodeStrings(t.TranslatedPages),
		t.Runs, t.TotalWords, t.TotalDuration, t.LatestDuration, t.LatestPages, t.LatestWords,
		millis(t.UpdatedAt), t.OrgID, t.ID)
	if err != nil {
		return s.conflict("put translation", err, translationConflict)
	}
	if n == 0 {
		return quire.NotFound("translation")
	}
	return nil
}

// DeleteTranslation removes a translation.
func (s *Store) DeleteTranslation(ctx context.Context, orgID, id string) (bool, error) {
	n, err := s.exec(ctx, "DELETE FROM translations WHERE org_id = ? AND id = ?", orgID, id)
	return n > 0, wrap("delete translation", err)
}
