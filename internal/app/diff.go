package app

import (
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"quire/internal/document"
	"quire/internal/quire"
	"quire/internal/reader"
	"quire/internal/service"
)

// The three ways a diff is drawn, chosen by ?view= and remembered in a
// cookie.
const (
	viewSplit    = "split"
	viewInline   = "inline"
	viewMarkdown = "markdown"
	// diffViewCookie remembers the person's last choice.
	diffViewCookie = "quire_diff_view"
)

// diffView is what the diff page shows: a change request's changes or a
// comparison of two revisions, drawn one way.
type diffView struct {
	spaceSidebar
	// Heading titles the page; Intro says what is compared.
	Heading, Intro string
	// Back leads to the change request, for its diff.
	Back string
	// View is the way drawn; Views the links to each.
	View  string
	Views []diffTab
	// Compare is the form choosing two revisions, for a comparison.
	Compare *compareForm
	Pages   []pageDiffView
}

// diffTab is a link to one way of drawing the diff.
type diffTab struct {
	Name, URL string
	Current   bool
}

// pageDiffView is one changed page as the diff draws it.
type pageDiffView struct {
	service.ChangedPage
	// Anchor is the id of its section, which the list on top links to.
	Anchor string
	// URL is its address in the newer content; "" for a removed page.
	URL        string
	ChangeName string
	// Added, Removed and Changed count its blocks by kind.
	Added, Removed, Changed int
	// Rows are its blocks (split and inline views); Lines its Markdown
	// (Markdown view).
	Rows  []diffRow
	Lines []diffLineRow
	// NoBody marks a page without a document on either side (a group
	// or a link).
	NoBody bool
	// View is the way the page is drawn.
	View string
}

// diffRow is either one block that differs or a run of unchanged ones,
// collapsed.
type diffRow struct {
	Block     *diffBlock
	Unchanged []diffBlock
}

// diffBlock is one block with the HTML of each side, as the reader draws
// it.
type diffBlock struct {
	Key, Change string
	// Label names the change for people ("Added", "Removed", "Changed").
	Label    string
	Old, New template.HTML
	Moved    bool
	// View is the way the block is drawn.
	View string
}

// diffLineRow is a line of a Markdown diff, or (Skipped > 0) a run of
// unchanged lines left out.
type diffLineRow struct {
	service.DiffLine
	Sign    string
	Skipped int
}

// compareForm chooses the two revisions compared.
type compareForm struct {
	Action   string
	From, To string
	Options  []revisionOption
}

// revisionOption is a revision offered by the compare form.
type revisionOption struct {
	ID, Label string
}

// changeRequestDiff shows every page a change request changes, compared
// with the space revision it is based on.
func (a *App) changeRequestDiff(w http.ResponseWriter, r *http.Request) error {
	sp, n, err := spaceAndNumber(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	cr, err := a.svc.ChangeRequest(ctx, sp.ID, n)
	if err != nil {
		return err
	}
	to := changeMode(sp.ID, n)
	from := revisionMode(sp.ID, cr.Base())
	d, err := a.svc.ChangeRequestDiff(ctx, sp.ID, n, from.addresses(sp.ID), to.addresses(sp.ID))
	if err != nil {
		return err
	}
	view := a.diffViewChoice(w, r)
	self := spaceAppPath(sp.ID, "changes/"+n+"/diff")
	subject := cr.Subject
	if subject == "" {
		subject = "Untitled change request"
	}
	v := &diffView{spaceSidebar: spaceSidebar{Space: sp, ChangeRequest: cr},
		Heading: "Changes of #" + n + " " + subject, Intro: "Compared with the space’s content it is based on.",
		Back: spaceAppPath(sp.ID, "changes/"+n), View: view, Views: diffTabs(self, url.Values{}, view)}
	if v.Pages, err = a.pageDiffViews(d, view, to.base); err != nil {
		return err
	}
	if v.Tree, err = a.readTree(r, sp, to); err != nil {
		return err
	}
	sh, err := a.spaceShell(r, sp, "Changes of #"+n+" · "+sp.Title)
	if err != nil {
		return err
	}
	sh.Section = "changes"
	return a.render(w, r, http.StatusOK, "diff", sh, v)
}

// compareRevisions compares two revisions of a space, ?from= and ?to=;
// without either, the current revision with the one before it.
func (a *App) compareRevisions(w http.ResponseWriter, r *http.Request) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	q := r.URL.Query()
	hist, _, err := a.svc.SpaceHistory(ctx, sp.ID, "", compareChoices)
	if err != nil {
		return err
	}
	from, to := q.Get("from"), q.Get("to")
	if !q.Has("from") && !q.Has("to") {
		if len(hist) > 0 {
			to = hist[0].Revision.ID
		}
		if len(hist) > 1 {
			from = hist[1].Revision.ID
		}
	}
	self := spaceAppPath(sp.ID, "compare")
	form := &compareForm{Action: self, From: from, To: to}
	for _, it := range hist {
		form.Options = append(form.Options, revisionOption{ID: it.Revision.ID, Label: revisionLabel(it)})
	}
	view := a.diffViewChoice(w, r)
	v := &diffView{spaceSidebar: spaceSidebar{Space: sp}, Heading: "Compare revisions", Compare: form, View: view}
	if q.Has("from") || q.Has("to") || from != "" && to != "" {
		fromM, toM := revisionMode(sp.ID, from), revisionMode(sp.ID, to)
		d, err := a.svc.CompareRevisions(ctx, sp.ID, from, to, fromM.addresses(sp.ID), toM.addresses(sp.ID))
		if err != nil {
			return err
		}
		form.Options = withRevision(form.Options, d.From.Rev)
		form.Options = withRevision(form.Options, d.To.Rev)
		v.Intro = "From the revision of " + revisionTime(d.From.Rev) + " to that of " + revisionTime(d.To.Rev) + "."
		v.Views = diffTabs(self, url.Values{"from": {from}, "to": {to}}, view)
		if v.Pages, err = a.pageDiffViews(d, view, toM.base); err != nil {
			return err
		}
	}
	if v.Tree, err = a.readTree(r, sp, currentMode(sp.ID)); err != nil {
		return err
	}
	sh, err := a.spaceShell(r, sp, "Compare revisions · "+sp.Title)
	if err != nil {
		return err
	}
	sh.Section = "revisions"
	return a.render(w, r, http.StatusOK, "diff", sh, v)
}

// compareChoices is how many recent revisions the compare form offers.
const compareChoices = 50

// revisionLabel names a revision in the compare form: when, how and by
// whom.
func revisionLabel(it service.RevisionView) string {
	s := revisionTime(it.Revision)
	if it.ChangeRequest != nil {
		s += " · merged #" + strconv.Itoa(it.ChangeRequest.Number)
		if it.ChangeRequest.Subject != "" {
			s += " " + it.ChangeRequest.Subject
		}
	} else {
		s += " · " + revisionKind(it.Revision.Type)
	}
	if it.Author != nil {
		s += " by " + it.Author.DisplayName
	}
	return s
}

// revisionTime is when a revision was made, as the app writes times.
func revisionTime(rev *quire.Revision) string {
	return rev.CreatedAt.UTC().Format("2 Jan 2006, 15:04:05") + " UTC"
}

// withRevision adds a revision to the form's choices when they lack it.
func withRevision(opts []revisionOption, rev *quire.Revision) []revisionOption {
	for _, o := range opts {
		if o.ID == rev.ID {
			return opts
		}
	}
	return append(opts, revisionOption{ID: rev.ID, Label: revisionTime(rev)})
}

// diffViewChoice returns the way to draw a diff: ?view= when it names
// one (remembered in a cookie), else the remembered one, else split.
func (a *App) diffViewChoice(w http.ResponseWriter, r *http.Request) string {
	if v := r.URL.Query().Get("view"); validDiffView(v) {
		http.SetCookie(w, &http.Cookie{Name: diffViewCookie, Value: v, Path: "/app/", MaxAge: int(365 * 24 * time.Hour / time.Second),
			HttpOnly: true, Secure: a.secure, SameSite: http.SameSiteLaxMode})
		return v
	}
	if c, err := r.Cookie(diffViewCookie); err == nil && validDiffView(c.Value) {
		return c.Value
	}
	return viewSplit
}

// validDiffView reports whether v names a way to draw a diff.
func validDiffView(v string) bool { return v == viewSplit || v == viewInline || v == viewMarkdown }

// diffTabs links to each way of drawing the diff at base with query q.
func diffTabs(base string, q url.Values, current string) []diffTab {
	var out []diffTab
	for _, t := range []struct{ view, name string }{{viewSplit, "Side by side"}, {viewInline, "Inline"}, {viewMarkdown, "Markdown"}} {
		v := url.Values{}
		for k, vs := range q {
			v[k] = vs
		}
		v.Set("view", t.view)
		out = append(out, diffTab{Name: t.name, URL: base + "?" + v.Encode(), Current: t.view == current})
	}
	return out
}

// pageDiffViews draws each changed page of a diff the way asked; pages
// is the address of the newer content's pages.
func (a *App) pageDiffViews(d *service.ContentDiff, view, pages string) ([]pageDiffView, error) {
	out := make([]pageDiffView, 0, len(d.Pages))
	for i := range d.Pages {
		pd := &d.Pages[i]
		pv := pageDiffView{ChangedPage: pd.ChangedPage, Anchor: "page-" + pd.ID, ChangeName: changeName(pd.Change), View: view}
		if pd.New != nil && pd.New.Document != nil {
			pv.URL = pages + pd.New.Path
		}
		pv.NoBody = (pd.Old == nil || pd.Old.Document == nil) && (pd.New == nil || pd.New.Document == nil)
		for _, b := range pd.Blocks {
			switch b.Change {
			case service.BlockAdded:
				pv.Added++
			case service.BlockRemoved:
				pv.Removed++
			case service.BlockChanged:
				pv.Changed++
			}
		}
		var err error
		if view == viewMarkdown {
			lines, err := pd.MarkdownDiff()
			if err != nil {
				return nil, err
			}
			pv.Lines = lineRows(lines)
		} else if pv.Rows, err = a.blockRows(pd, view, "d"+strconv.Itoa(i)); err != nil {
			return nil, err
		}
		out = append(out, pv)
	}
	return out, nil
}

// blockRows draws a page's blocks with the reader's renderer, each side
// resolving its references in its own revision, and groups the
// unchanged ones into runs. Only the blocks shown are drawn: the old
// side's removed and changed ones, and every block of the new side.
func (a *App) blockRows(pd *service.PageDiff, view, prefix string) ([]diffRow, error) {
	oldIdx, newIdx := map[*document.Node]int{}, map[*document.Node]int{}
	var oldHTML, newHTML []string
	if s := pd.Old; s != nil && s.Document != nil {
		for i := range s.Document.Nodes {
			oldIdx[&s.Document.Nodes[i]] = i
		}
		want := map[int]bool{}
		for _, b := range pd.Blocks {
			if b.Old != nil && b.Change != service.BlockUnchanged {
				want[oldIdx[b.Old]] = true
			}
		}
		var err error
		if oldHTML, err = a.drawBlocks(s, prefix+"o-", func(i int) bool { return want[i] }); err != nil {
			return nil, err
		}
	}
	if s := pd.New; s != nil && s.Document != nil {
		for i := range s.Document.Nodes {
			newIdx[&s.Document.Nodes[i]] = i
		}
		var err error
		if newHTML, err = a.drawBlocks(s, prefix+"n-", nil); err != nil {
			return nil, err
		}
	}
	var rows []diffRow
	for _, b := range pd.Blocks {
		db := diffBlock{Key: b.Key, Change: b.Change, Label: blockLabel(b.Change), Moved: b.Moved, View: view}
		if b.Old != nil && b.Change != service.BlockUnchanged {
			db.Old = template.HTML(oldHTML[oldIdx[b.Old]])
		}
		if b.New != nil {
			db.New = template.HTML(newHTML[newIdx[b.New]])
		}
		if b.Change == service.BlockUnchanged {
			if len(rows) == 0 || rows[len(rows)-1].Block != nil {
				rows = append(rows, diffRow{})
			}
			last := &rows[len(rows)-1]
			last.Unchanged = append(last.Unchanged, db)
			continue
		}
		rows = append(rows, diffRow{Block: &db})
	}
	return rows, nil
}

// drawBlocks draws the blocks of one side of a page that want reports
// (every one when nil), as the page view draws them.
func (a *App) drawBlocks(s *service.PageSide, prefix string, want func(int) bool) ([]string, error) {
	rd := s.Read
	rp := &reader.Page{Title: s.Page.Title, Document: s.Document,
		Resolvers: reader.Resolvers{
			Link:  func(ref document.Ref) reader.Target { return reader.Target(rd.Link(ref)) },
			Image: rd.Image,
			File:  func(ref document.Ref) reader.Target { return reader.Target(rd.File(ref)) },
			Path:  func(p string) reader.Target { return reader.Target(rd.PathTarget(p)) },
		}}
	// The reader's body writer escapes every value it writes.
	html, _ := a.reader.RenderBlocks(rp, prefix, want)
	return html, rd.Err()
}

// blockLabel names a block's change for people.
func blockLabel(change string) string {
	switch change {
	case service.BlockAdded:
		return "Added"
	case service.BlockRemoved:
		return "Removed"
	case service.BlockChanged:
		return "Changed"
	}
	return "Unchanged"
}

// diffContext is how many unchanged lines the Markdown view keeps
// around each change; longer unchanged runs are left out.
const diffContext = 3

// lineRows marks each Markdown line with its sign and leaves out the
// middle of long unchanged runs.
func lineRows(lines []service.DiffLine) []diffLineRow {
	var out []diffLineRow
	for i := 0; i < len(lines); {
		if lines[i].Change != service.LineSame {
			sign := "+"
			if lines[i].Change == service.LineRemoved {
				sign = "−"
			}
			out = append(out, diffLineRow{DiffLine: lines[i], Sign: sign})
			i++
			continue
		}
		j := i
		for j < len(lines) && lines[j].Change == service.LineSame {
			j++
		}
		keepHead, keepTail := diffContext, diffContext
		if i == 0 {
			keepHead = 0
		}
		if j == len(lines) {
			keepTail = 0
		}
		if j-i <= keepHead+keepTail+1 {
			for k := i; k < j; k++ {
				out = append(out, diffLineRow{DiffLine: lines[k], Sign: " "})
			}
		} else {
			for k := i; k < i+keepHead; k++ {
				out = append(out, diffLineRow{DiffLine: lines[k], Sign: " "})
			}
			out = append(out, diffLineRow{Skipped: j - i - keepHead - keepTail})
			for k := j - keepTail; k < j; k++ {
				out = append(out, diffLineRow{DiffLine: lines[k], Sign: " "})
			}
		}
		i = j
	}
	return out
}
