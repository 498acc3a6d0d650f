package service

import (
	"context"
	"errors"
	"slices"
	"time"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
	"quire/internal/translate"
)

// errNoEngine is what a run records when the server has no engine.
const errNoEngine = "no translation engine is configured on this server: start it with --translator (or QUIRE_TRANSLATOR_URL) naming a libretranslate+, deepl+ or openai+ URL"

// runOutcome is what a run did.
type runOutcome struct {
	sourceRevision string
	resultRevision string
	pages          []string
	edited         []string
	words          int
}

// RunJob carries out one queued run. Failures of the engine or of the
// content are recorded on the translation; only failures worth trying
// again (the database away) are returned, for the queue to retry.
func (t *Translations) RunJob(ctx context.Context, job TranslationJob) error {
	tr, err := t.begin(ctx, job)
	if quire.IsNotFound(err) {
		return nil // deleted since
	} else if err != nil {
		return err
	}
	started := t.s.Now()
	out, runErr := t.run(ctx, job, tr)
	if runErr != nil && retryable(runErr) && ctx.Err() == nil {
		t.log.WarnContext(ctx, "translation run failed; it will be tried again", "translation", tr.ID, "err", runErr)
		t.setState(context.WithoutCancel(ctx), job.Org, job.Translation, quire.TranslationQueued)
		return runErr
	}
	elapsed := t.s.Now().Sub(started).Milliseconds()
	err = t.s.store.WithTx(context.WithoutCancel(ctx), func(st quire.Store) error {
		cur, err := st.Translation(ctx, job.Org, job.Translation)
		if err != nil {
			return err
		}
		cur.State, cur.UpdatedAt = quire.TranslationIdle, t.s.Now()
		if runErr != nil {
			cur.Error = errorMessage(runErr)
			return st.PutTranslation(ctx, cur)
		}
		cur.Error = ""
		if cur.Language == tr.Language {
			cur.SourceRevision = out.sourceRevision
		}
		if out.resultRevision != "" {
			cur.ResultRevision = out.resultRevision
		}
		cur.EditedPages = out.edited
		for _, id := range out.pages {
			if !slices.Contains(cur.TranslatedPages, id) {
				cur.TranslatedPages = append(cur.TranslatedPages, id)
			}
		}
		cur.Runs++
		cur.LatestPages, cur.LatestWords, cur.LatestDuration = len(out.pages), out.words, elapsed
		cur.TotalWords += out.words
		cur.TotalDuration += elapsed
		return st.PutTranslation(ctx, cur)
	})
	if runErr != nil {
		t.log.ErrorContext(ctx, "translation run failed", "translation", tr.ID, "err", runErr)
	} else {
		t.log.InfoContext(ctx, "translation run done", "translation", tr.ID, "pages", len(out.pages),
			"words", out.words, "edited", len(out.edited))
	}
	if quire.IsNotFound(err) {
		return nil
	}
	return err
}

// staleRun is how long a run may have been marked running before another
// takes over: the process that ran it stopped.
const staleRun = 30 * time.Minute

// begin marks the translation as running, unless another run is: runs of
// one translation take turns, under the lock of its target space. It
// returns the translation as that run left it.
func (t *Translations) begin(ctx context.Context, job TranslationJob) (*quire.Translation, error) {
	var out *quire.Translation
	err := t.s.store.WithTx(ctx, func(st quire.Store) error {
		tr, err := st.Translation(ctx, job.Org, job.Translation)
		if err != nil {
			return err
		}
		if err := st.LockSpace(ctx, tr.TargetSpace); err != nil && !quire.IsNotFound(err) {
			return err
		}
		if tr, err = st.Translation(ctx, job.Org, job.Translation); err != nil {
			return err
		}
		now := t.s.Now()
		if tr.State == quire.TranslationRunning && now.Sub(tr.UpdatedAt) < staleRun {
			// Not a domain error: the queue tries this run again later.
			return errors.New("service: another run of this translation is in progress")
		}
		tr.State, tr.UpdatedAt = quire.TranslationRunning, now
		out = tr
		return st.PutTranslation(ctx, tr)
	})
	return out, err
}

// run translates the source pages changed since the last run into the
// target, through a change request merged at once.
func (t *Translations) run(ctx context.Context, job TranslationJob, tr *quire.Translation) (*runOutcome, error) {
	if t.tr == nil {
		return nil, quire.Errorf(quire.EUNAVAILABLE, errNoEngine)
	}
	u, err := t.s.store.User(ctx, job.User)
	if err != nil {
		return nil, err
	}
	src, err := liveSpace(ctx, t.s.store, tr.SourceSpace)
	if err != nil {
		return nil, quire.Errorf(quire.EINVALID, "the source space is gone")
	}
	target, err := liveSpace(ctx, t.s.store, tr.TargetSpace)
	if err != nil {
		return nil, quire.Errorf(quire.EINVALID, "the target space %s is gone or deleted; create the translation again", tr.TargetSpace)
	}
	srcRev, err := t.s.store.Revision(ctx, src.ID, src.Revision)
	if err != nil {
		return nil, err
	}
	srcSnap := t.s.engine.Snapshot(t.s.store, srcRev)
	out := &runOutcome{sourceRevision: srcRev.ID}
	changed, err := t.changedSource(ctx, srcSnap, tr)
	if err != nil {
		return nil, err
	}
	edited, err := t.editedTarget(ctx, target, tr)
	if err != nil {
		return nil, err
	}
	plan, err := t.plan(ctx, srcSnap, changed, edited)
	if err != nil {
		return nil, err
	}
	out.edited = plan.edited
	if err := t.translatePlan(ctx, tr, plan); err != nil {
		return nil, err
	}
	out.words = plan.segs.Words()
	for _, p := range plan.pages {
		out.pages = append(out.pages, p.page.ID)
	}
	rev, err := t.write(ctx, u, src, target, srcSnap, plan)
	if err != nil {
		return nil, err
	}
	out.resultRevision = rev
	return out, nil
}

// changedSource lists the source pages changed since the last run: every
// page before the first.
func (t *Translations) changedSource(ctx context.Context, snap *content.Snapshot, tr *quire.Translation) ([]string, error) {
	if tr.SourceRevision != "" {
		prev, err := t.s.store.Revision(ctx, tr.SourceSpace, tr.SourceRevision)
		if err == nil {
			return snap.ChangedPages(ctx, prev)
		}
		if !quire.IsNotFound(err) {
			return nil, err
		}
	}
	pages, err := snap.Pages(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(pages))
	for i, p := range pages {
		ids[i] = p.ID
	}
	return ids, nil
}

// editedTarget lists the target pages changed since the revision the last
// run made: edits by hand, which a run leaves alone.
func (t *Translations) editedTarget(ctx context.Context, target *quire.Space, tr *quire.Translation) (map[string]bool, error) {
	out := map[string]bool{}
	if tr.ResultRevision == "" || tr.ResultRevision == target.Revision {
		return out, nil
	}
	prev, err := t.s.store.Revision(ctx, target.ID, tr.ResultRevision)
	if quire.IsNotFound(err) {
		return out, nil
	} else if err != nil {
		return nil, err
	}
	cur, err := t.s.store.Revision(ctx, target.ID, target.Revision)
	if err != nil {
		return nil, err
	}
	ids, err := t.s.engine.Snapshot(t.s.store, cur).ChangedPages(ctx, prev)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// plannedPage is a source page to write into the target, translated.
type plannedPage struct {
	page *quire.RevisionPage
	doc  *document.Document
}

// runPlan is what a run writes: pages to translate in tree order
// (parents first), pages to delete, pages left alone.
type runPlan struct {
	pages   []*plannedPage
	deleted []string
	edited  []string
	segs    translate.Segments
}

// plan reads the changed source pages and gathers their text.
func (t *Translations) plan(ctx context.Context, snap *content.Snapshot, changed []string, edited map[string]bool) (*runPlan, error) {
	p := &runPlan{}
	want := map[string]bool{}
	for _, id := range changed {
		if edited[id] {
			p.edited = append(p.edited, id)
			continue
		}
		want[id] = true
	}
	slices.Sort(p.edited)
	tree, err := snap.Tree(ctx)
	if err != nil {
		return nil, err
	}
	present := map[string]bool{}
	var walk func(nodes []*content.TreeNode) error
	walk = func(nodes []*content.TreeNode) error {
		for _, n := range nodes {
			present[n.Page.ID] = true
			if want[n.Page.ID] {
				pp, err := t.planPage(ctx, snap, n.Page, &p.segs)
				if err != nil {
					return err
				}
				p.pages = append(p.pages, pp)
			}
			if err := walk(n.Children); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(tree); err != nil {
		return nil, err
	}
	for _, id := range changed {
		if want[id] && !present[id] {
			p.deleted = append(p.deleted, id)
		}
	}
	return p, nil
}

// planPage copies a source page and gathers its text.
func (t *Translations) planPage(ctx context.Context, snap *content.Snapshot, sp *quire.RevisionPage, segs *translate.Segments) (*plannedPage, error) {
	cp := *sp
	pp := &plannedPage{page: &cp}
	segs.Plain(cp.Title, func(s string) { cp.Title = s })
	segs.Plain(cp.Description, func(s string) { cp.Description = s })
	raw, err := snap.Document(ctx, sp)
	if err != nil {
		return nil, err
	}
	if raw != nil {
		d, err := document.ParseStored(raw)
		if err != nil {
			return nil, quire.Errorf(quire.EINVALID, "page %s of the source cannot be read: %v", sp.ID, err)
		}
		pp.doc = d
		segs.Document(d)
	}
	return pp, nil
}

// translatePlan sends the gathered text to the engine and writes the
// translations back into the planned pages.
func (t *Translations) translatePlan(ctx context.Context, tr *quire.Translation, p *runPlan) error {
	texts := p.segs.Texts()
	if len(texts) == 0 {
		return nil
	}
	var rules string
	if tr.Instructions != nil {
		if d, err := document.ParseStored(tr.Instructions); err == nil {
			rules = d.PlainText()
		}
	}
	got, err := t.tr.Translate(ctx, translate.Request{From: tr.SourceLanguage, To: tr.Language, Instructions: rules, Segments: texts})
	if err != nil {
		return quire.Errorf(quire.EUNAVAILABLE, "the translation engine failed: %v", err)
	}
	return p.segs.Apply(got)
}
