package service

import (
	"context"
	"log/slog"
	"strings"
	"unicode/utf8"

	"quire/internal/document"
	"quire/internal/quire"
	"quire/internal/translate"
)

// Translations keeps spaces translated: a translation names a source
// space and a language, owns a target space, and each run, a background
// job, writes the translation of the source pages changed since the run
// before into the target through a merged change request.
type Translations struct {
	s   *Service
	tr  translate.Translator
	log *slog.Logger
}

// NewTranslations returns the translation service of s, translating
// through tr; with a nil tr translations can be created and read, and a
// run records that no engine is configured.
func NewTranslations(s *Service, tr translate.Translator) *Translations {
	return &Translations{s: s, tr: tr, log: s.log}
}

// TranslationView is a translation with what its answer shows beside
// the record: the source space's current revision, which tells whether
// the source moved on since the last run.
type TranslationView struct {
	*quire.Translation
	SourceHead string
}

// Translation statuses.
const (
	TranslationPending   = "pending"
	TranslationRunning   = "running"
	TranslationCompleted = "completed"
)

// Status is pending before the first run, while a run is queued and when
// the source changed since the last run; running while one runs;
// completed otherwise.
func (v TranslationView) Status() string {
	switch {
	case v.State == quire.TranslationRunning:
		return TranslationRunning
	case v.State == quire.TranslationQueued, v.SourceRevision == "", v.SourceRevision != v.SourceHead:
		return TranslationPending
	}
	return TranslationCompleted
}

// TranslationInput is what a create or an update sets; an update leaves
// nil fields as they are.
type TranslationInput struct {
	SourceSpace    string
	SourceLanguage string
	Language       *string
	Instructions   []byte
}

// maxSpaceTitle is the length limit of a space title.
const maxSpaceTitle = 50

// targetTitle names the target space: "<title> (<language>)", the
// title shortened to fit.
func targetTitle(title, lang string) string {
	suffix := " (" + lang + ")"
	for utf8.RuneCountInString(title)+utf8.RuneCountInString(suffix) > maxSpaceTitle {
		_, size := utf8.DecodeLastRuneInString(title)
		title = title[:len(title)-size]
	}
	return strings.TrimSpace(title) + suffix
}

// checkInstructions checks that instructions are a rich-text document.
func checkInstructions(b []byte) error {
	if b == nil {
		return nil
	}
	if _, err := document.Parse(b); err != nil {
		return quire.Invalid("instructions", "%v", err)
	}
	return nil
}

// Create makes a translation of a space the caller may read, and its
// target space beside the source (in the same collection), where the
// caller must be allowed to create spaces.
func (t *Translations) Create(ctx context.Context, u *quire.User, orgID string, in TranslationInput) (*TranslationView, error) {
	if in.Language == nil {
		return nil, quire.Invalid("language", "required")
	}
	if *in.Language == in.SourceLanguage {
		return nil, quire.Invalid("language", "the source is already in %s", in.SourceLanguage)
	}
	if err := checkInstructions(in.Instructions); err != nil {
		return nil, err
	}
	var out *TranslationView
	err := t.s.store.WithTx(ctx, func(st quire.Store) error {
		src, err := st.Space(ctx, in.SourceSpace)
		if quire.IsNotFound(err) || (err == nil && (src.OrgID != orgID || src.DeletedAt != nil)) {
			return quire.Invalid("source.space", "space %q does not exist in this organization", in.SourceSpace)
		} else if err != nil {
			return err
		}
		if _, err := t.s.require(ctx, st, u, ScopeSpace, src.ID, quire.LevelRead, quire.EFORBIDDEN); err != nil {
			if quire.IsNotFound(err) {
				return quire.Invalid("source.space", "space %q does not exist in this organization", in.SourceSpace)
			}
			return err
		}
		if src.Parent == "" {
			if _, err := t.s.require(ctx, st, u, ScopeOrganization, orgID, quire.LevelCreate, quire.EFORBIDDEN); err != nil {
				return err
			}
		}
		target, err := t.s.createSpace(ctx, st, u, orgID, SpaceInput{Title: targetTitle(src.Title, *in.Language),
			Emoji: src.Emoji, Parent: src.Parent, Language: *in.Language})
		if err != nil {
			return err
		}
		now := t.s.Now()
		tr := &quire.Translation{ID: quire.NewID(), OrgID: orgID, SourceSpace: src.ID, SourceLanguage: in.SourceLanguage,
			Language: *in.Language, Instructions: in.Instructions, TargetSpace: target.Space.ID,
			// The target as created is the result so far: edits made in
			// it before the first run are kept like later ones.
			ResultRevision: target.Space.Revision,
			CreatedBy:      u.ID, CreatedAt: now, UpdatedAt: now}
		if err := st.CreateTranslation(ctx, tr); err != nil {
			return err
		}
		out = &TranslationView{Translation: tr, SourceHead: src.Revision}
		return nil
	})
	return out, err
}

// view adds the source's current revision to a translation.
func (t *Translations) view(ctx context.Context, st quire.Store, tr *quire.Translation) (*TranslationView, error) {
	v := &TranslationView{Translation: tr}
	src, err := st.Space(ctx, tr.SourceSpace)
	if err != nil && !quire.IsNotFound(err) {
		return nil, err
	}
	if src != nil {
		v.SourceHead = src.Revision
	}
	return v, nil
}

// Get returns a translation of an organization; ENOTFOUND.
func (t *Translations) Get(ctx context.Context, orgID, id string) (*TranslationView, error) {
	tr, err := t.s.store.Translation(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	return t.view(ctx, t.s.store, tr)
}

// List returns a page of an organization's translations.
func (t *Translations) List(ctx context.Context, orgID string, p quire.Page) (*quire.List[*TranslationView], error) {
	l, err := t.s.store.Translations(ctx, orgID, p)
	if err != nil {
		return nil, err
	}
	out := &quire.List[*TranslationView]{Next: l.Next, Count: l.Count, Items: make([]*TranslationView, 0, len(l.Items))}
	for _, tr := range l.Items {
		v, err := t.view(ctx, t.s.store, tr)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, v)
	}
	return out, nil
}

// Update changes a translation's instructions and language. A new
// language has the next run translate every page again, pages edited by
// hand in the target excepted.
func (t *Translations) Update(ctx context.Context, orgID, id string, in TranslationInput) (*TranslationView, error) {
	if err := checkInstructions(in.Instructions); err != nil {
		return nil, err
	}
	var out *TranslationView
	err := t.s.store.WithTx(ctx, func(st quire.Store) error {
		tr, err := st.Translation(ctx, orgID, id)
		if err != nil {
			return err
		}
		if in.Language != nil && *in.Language != tr.Language {
			if *in.Language == tr.SourceLanguage {
				return quire.Invalid("language", "the source is already in %s", tr.SourceLanguage)
			}
			tr.Language, tr.SourceRevision = *in.Language, ""
			// The target says which language it now holds; a target
			// removed meanwhile is reported by the next run.
			lang := tr.Language
			if _, err := st.UpdateSpace(ctx, tr.TargetSpace, quire.SpaceUpdate{Language: &lang}); err != nil && !quire.IsNotFound(err) {
				return err
			}
		}
		tr.Instructions = in.Instructions
		tr.UpdatedAt = t.s.Now()
		if err := st.PutTranslation(ctx, tr); err != nil {
			return err
		}
		out, err = t.view(ctx, st, tr)
		return err
	})
	return out, err
}

// Delete removes a translation and reports whether there was one; its
// target space stays.
func (t *Translations) Delete(ctx context.Context, orgID, id string) (bool, error) {
	return t.s.store.DeleteTranslation(ctx, orgID, id)
}

// TranslationJob is a queued run of a translation.
type TranslationJob struct {
	Org         string `json:"org"`
	Translation string `json:"translation"`
	User        string `json:"user"`
}

// Kind implements quire.JobArgs.
func (TranslationJob) Kind() string { return "translation_run" }

// translationJobAttempts is how many times a run is tried when the
// database fails in a way that may pass; the engine's own failures are
// retried by the engine and recorded.
const translationJobAttempts = 3

// Run marks a translation as queued and queues a run of it, in one
// transaction: the translation is marked only if its run is queued. Runs
// of one translation take turns (see RunJob); a run that finds nothing
// changed writes nothing.
func (t *Translations) Run(ctx context.Context, u *quire.User, orgID, id string) error {
	return t.s.store.WithTx(ctx, func(st quire.Store) error {
		tr, err := st.Translation(ctx, orgID, id)
		if err != nil {
			return err
		}
		if tr.State == quire.TranslationIdle {
			// The error of the run before gives way to the new run's.
			tr.State, tr.Error = quire.TranslationQueued, ""
			tr.UpdatedAt = t.s.Now()
			if err := st.PutTranslation(ctx, tr); err != nil {
				return err
			}
		}
		_, err = t.s.enqueueTx(ctx, st, TranslationJob{Org: orgID, Translation: id, User: u.ID},
			quire.JobOptions{MaxAttempts: translationJobAttempts})
		return err
	})
}

// setState moves a translation to a state, logging a failure.
func (t *Translations) setState(ctx context.Context, orgID, id string, state quire.TranslationState) {
	err := t.s.store.WithTx(ctx, func(st quire.Store) error {
		tr, err := st.Translation(ctx, orgID, id)
		if err != nil {
			return err
		}
		tr.State, tr.UpdatedAt = state, t.s.Now()
		return st.PutTranslation(ctx, tr)
	})
	if err != nil && !quire.IsNotFound(err) {
		t.log.WarnContext(ctx, "translation state not recorded", "translation", id, "err", err)
	}
}
