package quire

import (
	"context"
	"time"
)

// TranslationState is where a translation's runs stand.
type TranslationState string

// Translation run states: idle between runs, queued when a run was asked
// for and has not started, running while one runs.
const (
	TranslationIdle    TranslationState = ""
	TranslationQueued  TranslationState = "queued"
	TranslationRunning TranslationState = "running"
)

// Translation keeps a space (the target) a translation of another (the
// source): each run translates the source pages that changed since the
// run before and writes them into the target through a merged change
// request.
type Translation struct {
	ID    string
	OrgID string
	// SourceSpace and SourceLanguage name the space translated and its
	// language; Language is the target's.
	SourceSpace    string
	SourceLanguage string
	Language       string
	// Instructions is a JSON document of style rules for the engine, nil
	// when there are none.
	Instructions []byte
	// TargetSpace is the space holding the translation.
	TargetSpace string
	State       TranslationState
	// SourceRevision is the source revision the last run translated, ""
	// before the first; ResultRevision the target revision it made.
	SourceRevision string
	ResultRevision string
	// Error says why the last run failed, "" when it did not.
	Error string
	// EditedPages are the target pages the last run left alone because
	// they were edited by hand since the run before.
	EditedPages []string
	// TranslatedPages are the ids of the pages any run translated.
	TranslatedPages []string
	// Run statistics; durations in milliseconds.
	Runs           int
	TotalWords     int
	TotalDuration  int64
	LatestDuration int64
	LatestPages    int
	LatestWords    int
	CreatedBy      string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// TranslationStore keeps the translations of organizations.
type TranslationStore interface {
	// CreateTranslation stores a new translation; ECONFLICT when its
	// source space already has one into the same language.
	CreateTranslation(ctx context.Context, t *Translation) error
	// Translation returns a translation of an organization; ENOTFOUND.
	Translation(ctx context.Context, orgID, id string) (*Translation, error)
	// Translations lists an organization's translations, oldest first.
	Translations(ctx context.Context, orgID string, p Page) (*List[*Translation], error)
	// PutTranslation writes every field of an existing translation;
	// ENOTFOUND when it is gone, ECONFLICT when its new language is taken.
	PutTranslation(ctx context.Context, t *Translation) error
	// DeleteTranslation removes a translation and reports whether there
	// was one.
	DeleteTranslation(ctx context.Context, orgID, id string) (bool, error)
}
