package service

import (
	"context"
	"fmt"
	"strings"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
)

// MaxContentChanges bounds one content write.
const MaxContentChanges = 50

// ChangeOperation names what one change of a content write asks for.
type ChangeOperation string

// Content change operations.
const (
	OpInsertPage  ChangeOperation = "insert_page"  // add a page
	OpUpdatePage  ChangeOperation = "update_page"  // change a page's body or metadata
	OpDeletePage  ChangeOperation = "delete_page"  // remove a page
	OpRevertPage  ChangeOperation = "revert_page"  // restore a page from an earlier revision
	OpInsertFiles ChangeOperation = "insert_files" // add files
)

// ChangeOutcome names what one change of a content write did.
type ChangeOutcome string

// Content change outcomes.
const (
	OutcomeCreatedPage   ChangeOutcome = "created_page"   // a page was added
	OutcomeUpdatedPage   ChangeOutcome = "updated_page"   // a page was changed
	OutcomeDeletedPage   ChangeOutcome = "deleted_page"   // a page was removed
	OutcomeRevertedPage  ChangeOutcome = "reverted_page"  // a page was restored
	OutcomeInsertedFiles ChangeOutcome = "inserted_files" // files were added
)

// DocumentInput is a page body given as Markdown or as a JSON document.
type DocumentInput struct {
	Markdown *string
	JSON     []byte
	// Edit, when set, makes the body from the page's document as the
	// write finds it (an empty document for a page without one): the
	// editor's block and page saves, which check that what they replace
	// did not change meanwhile (page_blocks.go). Only update_page reads
	// it; it may run once per attempt of the write.
	Edit func(prev *document.Document) (*document.Document, error)
}

// PageFields are the page metadata a change may set; nil keeps a field.
type PageFields struct {
	Title, Slug, Emoji, Icon, Description, Condition *string
	Hidden, NoIndex, NoRobotsIndex                   *bool
	// Cover and Layout are set by the app's page settings (page_look.go).
	Cover  *CoverInput
	Layout *quire.PageLayout
}

// FileInput is a file to add: its bytes, or a URL to fetch them from.
type FileInput struct {
	Name        string
	Ref         string
	ContentType string
	URL         string
	Data        []byte
}

// ContentChange is one change of a content write. Page and Into may name
// a page by id or by the Ref of a page inserted earlier in the batch.
type ContentChange struct {
	Operation ChangeOperation
	Ref       string
	Page      string
	Into      *string // nil: keep (update) or top level (insert); "": top level
	At        *int
	Document  *DocumentInput
	Fields    PageFields
	Files     []FileInput
	Revision  string   // revert_page: the revision to restore from
	Blocks    []string // revert_page: only these blocks
}

// ChangeResult says what one change did.
type ChangeResult struct {
	Operation ChangeOutcome
	Ref       string
	PageID    string
	Files     []*quire.File
}

// batch carries the state of one content write.
type batch struct {
	s     *Service
	ed    *content.Edit
	base  *quire.Revision
	refs  map[string]string
	files map[string]string
	// stored holds the files of each insert_files change by its index,
	// stored before the first attempt.
	stored [][]*quire.File
}

// resolve turns a page id or batch ref into a page id.
func (b *batch) resolve(id string) string {
	if p, ok := b.refs[id]; ok {
		return p
	}
	return id
}

// apply carries out change i.
func (b *batch) apply(ctx context.Context, i int, ch ContentChange) (ChangeResult, error) {
	field := fmt.Sprintf("changes[%d]", i)
	switch ch.Operation {
	case OpInsertPage:
		return b.insertPage(ctx, field, ch)
	case OpUpdatePage:
		return b.updatePage(ctx, field, ch)
	case OpDeletePage:
		id := b.resolve(ch.Page)
		if err := b.ed.DeletePage(ctx, id); err != nil {
			return ChangeResult{}, pageErr(field+".page", ch.Page, err)
		}
		return ChangeResult{Operation: OutcomeDeletedPage, PageID: id}, nil
	case OpRevertPage:
		return b.revertPage(ctx, field, ch)
	case OpInsertFiles:
		return b.insertFiles(ctx, b.stored[i], ch)
	}
	return ChangeResult{}, quire.Invalid(field+".operation", "unknown operation %q", ch.Operation)
}

// pageErr names the field of a change that points at a missing page.
func pageErr(field, id string, err error) error {
	if quire.IsNotFound(err) {
		return quire.Invalid(field, "page %q does not exist in the change request", id)
	}
	return err
}

// insertPage adds a document page.
func (b *batch) insertPage(ctx context.Context, field string, ch ContentChange) (ChangeResult, error) {
	if ch.Document == nil {
		return ChangeResult{}, quire.Invalid(field+".document", "required")
	}
	doc, _, err := b.s.documentJSON(ctx, field+".document", ch.Document, nil, importOptions(b.base.SpaceID))
	if err != nil {
		return ChangeResult{}, err
	}
	p := &quire.RevisionPage{ID: quire.NewID(), Type: quire.PageDocument, Title: "Untitled"}
	layout := quire.DefaultPageLayout()
	p.Layout = &layout
	if err := setFields(field, p, ch.Fields); err != nil {
		return ChangeResult{}, err
	}
	if err := b.setLook(ctx, field, p, ch.Fields); err != nil {
		return ChangeResult{}, err
	}
	if ch.Into != nil {
		p.Parent = b.resolve(*ch.Into)
	}
	if err := b.ed.InsertPage(ctx, p, doc, ch.At); err != nil {
		return ChangeResult{}, err
	}
	if ch.Ref != "" {
		if _, dup := b.refs[ch.Ref]; dup {
			return ChangeResult{}, quire.Invalid(field+".ref", "ref %q is used twice", ch.Ref)
		}
		b.refs[ch.Ref] = p.ID
	}
	return ChangeResult{Operation: OutcomeCreatedPage, Ref: ch.Ref, PageID: p.ID}, nil
}

// updatePage changes a page's metadata, document or place.
func (b *batch) updatePage(ctx context.Context, field string, ch ContentChange) (ChangeResult, error) {
	id := b.resolve(ch.Page)
	old, err := b.ed.Snapshot().Page(ctx, id)
	if err != nil {
		return ChangeResult{}, pageErr(field+".page", ch.Page, err)
	}
	var doc []byte
	var parsed *document.Document
	if ch.Document != nil {
		prev, err := b.s.docs.page(ctx, b.ed.Snapshot(), old)
		if err != nil {
			return ChangeResult{}, err
		}
		if doc, parsed, err = b.s.documentJSON(ctx, field+".document", ch.Document, prev, importOptions(b.base.SpaceID)); err != nil {
			return ChangeResult{}, err
		}
	}
	move := content.Move{At: ch.At}
	if ch.Into != nil {
		into := b.resolve(*ch.Into)
		move.Parent = &into
	}
	p, err := b.ed.UpdatePage(ctx, id, func(p *quire.RevisionPage) error {
		if err := setFields(field, p, ch.Fields); err != nil {
			return err
		}
		return b.setLook(ctx, field, p, ch.Fields)
	}, doc, move)
	if err != nil {
		return ChangeResult{}, err
	}
	b.s.docs.keep(p.Document, parsed, len(doc))
	return ChangeResult{Operation: OutcomeUpdatedPage, PageID: id}, nil
}

// setFields applies page metadata.
func setFields(field string, p *quire.RevisionPage, f PageFields) error {
	if f.Title != nil {
		t := strings.TrimSpace(*f.Title)
		if t == "" {
			return quire.Invalid(field+".title", "must not be empty")
		}
		p.Title = t
	}
	if f.Slug != nil {
		if s := content.Slugify(*f.Slug); s != *f.Slug {
			return quire.Invalid(field+".slug", "must be a URL path segment such as %q", s)
		}
		p.Slug = *f.Slug
	}
	for _, set := range []struct {
		dst *string
		src *string
	}{{&p.Emoji, f.Emoji}, {&p.Icon, f.Icon}, {&p.Description, f.Description}, {&p.Condition, f.Condition}} {
		if set.src != nil {
			*set.dst = *set.src
		}
	}
	for _, set := range []struct {
		dst *bool
		src *bool
	}{{&p.Hidden, f.Hidden}, {&p.NoIndex, f.NoIndex}, {&p.NoRobotsIndex, f.NoRobotsIndex}} {
		if set.src != nil {
			*set.dst = *set.src
		}
	}
	return nil
}

// revertPage restores a page (or some of its blocks) as it was in an
// earlier revision, by default the one the change request is based on.
func (b *batch) revertPage(ctx context.Context, field string, ch ContentChange) (ChangeResult, error) {
	from := b.base
	if ch.Revision != "" {
		rev, err := b.s.store.Revision(ctx, b.base.SpaceID, ch.Revision)
		if quire.IsNotFound(err) {
			return ChangeResult{}, quire.Invalid(field+".revision", "revision %q does not exist in this space", ch.Revision)
		} else if err != nil {
			return ChangeResult{}, err
		}
		from = rev
	}
	id := b.resolve(ch.Page)
	then, err := b.s.engine.Snapshot(b.s.store, from).Page(ctx, id)
	if err != nil {
		return ChangeResult{}, pageErr(field+".page", ch.Page, err)
	}
	doc, err := b.s.engine.Snapshot(b.s.store, from).Document(ctx, then)
	if err != nil {
		return ChangeResult{}, err
	}
	if len(ch.Blocks) > 0 {
		now, err := b.ed.Snapshot().Page(ctx, id)
		if err != nil {
			return ChangeResult{}, pageErr(field+".page", ch.Page, err)
		}
		cur, err := b.ed.Snapshot().Document(ctx, now)
		if err != nil {
			return ChangeResult{}, err
		}
		if doc, err = revertBlocks(field+".block", cur, doc, ch.Blocks); err != nil {
			return ChangeResult{}, err
		}
	}
	if doc == nil {
		doc = emptyDocument()
	}
	_, err = b.ed.UpdatePage(ctx, id, func(p *quire.RevisionPage) error {
		p.Title, p.Emoji, p.Icon, p.Description = then.Title, then.Emoji, then.Icon, then.Description
		return nil
	}, doc, content.Move{})
	if err != nil {
		return ChangeResult{}, pageErr(field+".page", ch.Page, err)
	}
	return ChangeResult{Operation: OutcomeRevertedPage, PageID: id}, nil
}

// UpdateChangeRequestContent applies a batch of changes to a change
// request atomically, as one new revision of it. A batch that changes
// nothing makes no revision.
func (s *Service) UpdateChangeRequestContent(ctx context.Context, u *quire.User, spaceID, crID string, changes []ContentChange) (*quire.ChangeRequest, []ChangeResult, error) {
	if len(changes) == 0 {
		return nil, nil, quire.Invalid("changes", "give at least one change")
	}
	if len(changes) > MaxContentChanges {
		return nil, nil, quire.Invalid("changes", "at most %d changes per request", MaxContentChanges)
	}
	// Refuse early what no attempt could write, before fetching anything.
	before, _, err := writableChangeRequest(ctx, s.store, spaceID, crID)
	if err != nil {
		return nil, nil, err
	}
	stored, err := s.storeFiles(ctx, changes)
	if err != nil {
		return nil, nil, err
	}
	type written struct {
		cr      *quire.ChangeRequest
		results []ChangeResult
	}
	w, err := retryConflicts(func() (written, error) {
		cr, results, err := s.writeContent(ctx, u, spaceID, crID, changes, stored)
		return written{cr, results}, err
	})
	if err == nil && w.cr.Revision != before.Revision {
		s.notifyEdited(ctx, u, w.cr)
	}
	return w.cr, w.results, err
}

// writeContent is one attempt of a content write, with the files stored
// for it; a quire.Stale ECONFLICT when another write, an update or a merge
// moved the change request first.
func (s *Service) writeContent(ctx context.Context, u *quire.User, spaceID, crID string, changes []ContentChange, stored [][]*quire.File) (*quire.ChangeRequest, []ChangeResult, error) {
	cr, sp, err := writableChangeRequest(ctx, s.store, spaceID, crID)
	if err != nil {
		return nil, nil, err
	}
	rev, err := s.store.Revision(ctx, sp.ID, cr.Revision)
	if err != nil {
		return nil, nil, err
	}
	base, err := s.store.Revision(ctx, sp.ID, cr.Base())
	if err != nil {
		return nil, nil, err
	}
	b := &batch{s: s, ed: s.engine.Edit(s.store, rev), base: base, refs: map[string]string{}, files: map[string]string{}, stored: stored}
	results := make([]ChangeResult, 0, len(changes))
	for i, ch := range changes {
		r, err := b.apply(ctx, i, ch)
		if err != nil {
			return nil, nil, err
		}
		results = append(results, r)
	}
	if !b.ed.Changed(rev) {
		return cr, results, nil
	}
	cr, err = s.commitToChangeRequest(ctx, u, sp.ID, cr.ID, b.ed, rev)
	return cr, results, err
}

// commitToChangeRequest commits an edit of a change request's revision
// rev as its next revision, of type edits by u, and moves the change
// request to it: only from rev, and only while the change request is open
// or draft, so that a write or a merge that moved it first makes this
// attempt stale (the next attempt refuses a merged one). u becomes a
// contributor.
func (s *Service) commitToChangeRequest(ctx context.Context, u *quire.User, spaceID, crID string, ed *content.Edit, rev *quire.Revision) (*quire.ChangeRequest, error) {
	next := ed.Revision(quire.NewID(), spaceID, quire.RevisionEdits, u.ID, rev.ID)
	var cr *quire.ChangeRequest
	// Writes to change requests of one space at the same moment share a
	// commit; a lost compare-and-swap comes back as quire.IsStale, for
	// the caller to start again from a fresh read.
	err := s.batches.do(ctx, s.store, "content:"+spaceID, "", func(ctx context.Context, st quire.Store) (bool, error) {
		if err := ed.Commit(ctx, st, next); err != nil {
			return false, err
		}
		prev := rev.ID
		upd := quire.ChangeRequestUpdate{Revision: &next.ID, IfRevision: &prev, IfStatus: quire.WritableStatuses()}
		var err error
		if cr, err = st.UpdateChangeRequest(ctx, spaceID, crID, upd); err != nil {
			return false, err
		}
		return false, st.AddContributor(ctx, crID, u.ID)
	})
	return cr, err
}

// writableChangeRequest loads, from st, a change request whose content may
// change: not merged or archived, in a live space that is not locked.
func writableChangeRequest(ctx context.Context, st quire.Store, spaceID, crID string) (*quire.ChangeRequest, *quire.Space, error) {
	sp, cr, err := st.SpaceChangeRequest(ctx, spaceID, crID)
	if sp == nil {
		return nil, nil, err
	}
	if sp.DeletedAt != nil {
		return nil, nil, quire.Errorf(quire.EINVALID, "the space is deleted; restore it first")
	}
	if sp.EditMode == quire.EditModeLocked {
		return nil, nil, quire.Errorf(quire.EINVALID, "the space is locked: its content cannot change")
	}
	if err != nil {
		return nil, nil, err
	}
	switch cr.Status {
	case quire.CRMerged:
		return nil, nil, quire.Errorf(quire.EINVALID, "the change request is merged: its content cannot change")
	case quire.CRArchived:
		return nil, nil, quire.Errorf(quire.EINVALID, "the change request is archived: reopen it first")
	}
	return cr, sp, nil
}
