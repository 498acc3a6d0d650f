package app_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"quire/internal/app"
	"quire/internal/document"
	"quire/internal/fetch"
	"quire/internal/httpapi"
	"quire/internal/jobs"
	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/translate"
	"quire/internal/translate/translatetest"
)

// gatedTranslator sends translation runs to a fake LibreTranslate engine
// on 127.0.0.1, each run waiting while the test holds its gate, and
// keeps the instructions the runs were given.
type gatedTranslator struct {
	engine translate.Translator
	// gate is held by a test to keep runs in progress.
	gate sync.Mutex
	mu   sync.Mutex
	// instructions are those of every request, in order.
	instructions []string
	// fail, when set, is what the engine answers instead of translating.
	fail error
}

// Translate implements translate.Translator.
func (g *gatedTranslator) Translate(ctx context.Context, r translate.Request) ([]string, error) {
	// Wait for the test to open the gate.
	g.gate.Lock()
	defer g.gate.Unlock()
	g.mu.Lock()
	g.instructions = append(g.instructions, r.Instructions)
	fail := g.fail
	g.mu.Unlock()
	if fail != nil {
		return nil, fail
	}
	return g.engine.Translate(ctx, r)
}

// seen returns the instructions of the requests so far.
func (g *gatedTranslator) seen() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.instructions...)
}

// translationsOf keeps the translation service and engine of each
// harness, whose engines run in parallel.
type translationsOf struct {
	mu sync.Mutex
	m  map[*harness]*translationArea
}

// translationArea is a harness's translation service and its engine.
type translationArea struct {
	svc    *service.Translations
	engine *gatedTranslator
}

// option gives the API and the app of a harness a translation service
// whose runs, jobs of the harness's queue, go to a fake LibreTranslate
// engine on 127.0.0.1.
func (tr *translationsOf) option(t *testing.T) harnessOption {
	return func(h *harness, cfg *httpapi.Config, acfg *app.Config) {
		srv := translatetest.Start(t, "libretranslate")
		e, err := translate.New(srv.URL, translate.Options{Fetch: fetch.New(fetch.Config{AllowLocal: true}),
			Key: translatetest.Key, Backoff: time.Millisecond, RatePerSecond: 1000})
		if err != nil {
			t.Fatalf("translation engine: %v", err)
		}
		area := &translationArea{engine: &gatedTranslator{engine: e}}
		area.svc = service.NewTranslations(h.Svc, area.engine)
		jobs.Register(h.Queue, area.svc.RunJob)
		cfg.Translations, acfg.Translations = area.svc, area.svc
		tr.mu.Lock()
		defer tr.mu.Unlock()
		if tr.m == nil {
			tr.m = map[*harness]*translationArea{}
		}
		tr.m[h] = area
	}
}

// of returns the translation service and engine of a harness.
func (tr *translationsOf) of(h *harness) *translationArea {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.m[h]
}

// withTranslations gives a harness a translation service, for tests
// that do not look at it.
func withTranslations(t *testing.T) harnessOption {
	var tr translationsOf
	return tr.option(t)
}

// translatedSource is a space of two pages to translate.
type translatedSource struct {
	Space, Intro, Setup string
}

// newTranslatedSource creates the space Handbook with the pages Intro
// and Setup.
func newTranslatedSource(t *testing.T, h *harness) translatedSource {
	t.Helper()
	sp, err := h.Svc.CreateSpace(context.Background(), h.Admin, h.Org, service.SpaceInput{Title: "Handbook", Emoji: "📘"})
	if err != nil {
		t.Fatal(err)
	}
	res := h.writeAndMerge(t, sp.Space.ID, "Pages",
		pageChange("intro", "Intro", "intro", "Welcome to the handbook.\n", nil),
		pageChange("setup", "Setup", "setup", "Install the tools first.\n\nThen sign in.\n", nil))
	return translatedSource{Space: sp.Space.ID, Intro: res[0].PageID, Setup: res[1].PageID}
}

// translationIDOf reads a translation's id from the address of its page.
func translationIDOf(t *testing.T, h *harness, loc string) string {
	t.Helper()
	m := regexp.MustCompile(`^/app/o/` + h.Org + `/translations/([a-z0-9]+)\?done=created$`).FindStringSubmatch(loc)
	if m == nil {
		t.Fatalf("create answered a redirect to %q, not to the translation's page", loc)
	}
	return m[1]
}

// waitTranslation reads a translation's page until cond holds of it.
func waitTranslation(t *testing.T, h *harness, c *http.Client, path, what string, cond func(body string) bool) string {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		st, _, body := h.get(t, c, path)
		if st != http.StatusOK {
			t.Fatalf("GET %s: %d\n%s", path, st, problemText(body))
		}
		if cond(body) {
			return body
		}
		if time.Now().After(deadline) {
			t.Fatalf("the translation's page never showed %s:\n%s", what, problemText(body))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestTranslations walks an admin through a translation: create it from
// the form (its instructions typed as paragraphs stored as a document),
// run it (the page reloading only while the run is under way), see the
// run's statistics, edit a target page by hand and see the next run list
// it as left alone, edit the instructions and delete it after confirming,
// its target space kept.
func TestTranslations(t *testing.T) {
	t.Parallel()
	var trs translationsOf
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		area := trs.of(h)
		src := newTranslatedSource(t, h)
		admin := h.client(t, h.signIn(t, h.Admin))
		list := "/app/o/" + h.Org + "/translations"

		st, _, body := h.get(t, admin, "/app/o/"+h.Org)
		if st != http.StatusOK || !strings.Contains(body, `<a href="`+list+`">Translations</a>`) {
			t.Fatalf("the organization's navigation has no link to the translations: %d", st)
		}
		st, _, body = h.get(t, admin, list)
		for _, want := range []string{"No space is translated yet.", `<option value="` + src.Space + `">📘 Handbook</option>`,
			`<option value="pt-br">Brazilian Portuguese</option>`, `<option value="sl">Slovenian</option>`, `aria-current="page">Translations</a>`} {
			if st != http.StatusOK || !strings.Contains(body, want) {
				t.Fatalf("the translations page lacks %q: %d\n%s", want, st, problemText(body))
			}
		}
		if n := strings.Count(body, `<option value="sl">`); n != 2 {
			t.Errorf("the languages are offered %d times, want twice (from and into)", n)
		}

		st, loc, body := h.postForm(t, admin, list, url.Values{"source": {src.Space}, "source_language": {"en"}, "language": {"de"},
			"instructions": {"Keep product names.\r\n\r\n\r\nUse the informal you.\r\nNever translate Quire."}})
		if st != http.StatusSeeOther {
			t.Fatalf("create: %d\n%s", st, problemText(body))
		}
		id := translationIDOf(t, h, loc)
		page := list + "/" + id
		v, err := area.svc.Get(ctx, h.Org, id)
		if err != nil {
			t.Fatal(err)
		}
		d, err := document.Parse(v.Instructions)
		if err != nil {
			t.Fatalf("the instructions are not a document: %v\n%s", err, v.Instructions)
		}
		if len(d.Nodes) != 2 || d.Nodes[0].Type != "paragraph" || d.Nodes[1].Type != "paragraph" ||
			d.PlainText() != "Keep product names.\nUse the informal you.\nNever translate Quire." {
			t.Fatalf("instructions stored as %s", v.Instructions)
		}
		if v.SourceLanguage != "en" || v.Language != "de" || v.SourceSpace != src.Space {
			t.Fatalf("created %+v", v.Translation)
		}
		target := spaceOf(t, h, v.TargetSpace)
		if target.Title != "Handbook (de)" || target.Language != "de" {
			t.Fatalf("target space %q in %q", target.Title, target.Language)
		}

		st, _, body = h.get(t, admin, loc)
		for _, want := range []string{"Translation created.", "<h1>Handbook in German</h1>", "Pending", "Not run yet.",
			`<a href="/app/s/` + target.ID + `"><span aria-hidden="true">📘</span> Handbook (de)</a>`, "No run has completed yet.",
			">Keep product names.\n\nUse the informal you.\nNever translate Quire.</textarea>", "Run now", "Delete translation…"} {
			if st != http.StatusOK || !strings.Contains(body, want) {
				t.Fatalf("the new translation's page lacks %q: %d\n%s", want, st, problemText(body))
			}
		}
		if strings.Contains(body, "http-equiv") {
			t.Error("the page of a translation that does not run reloads")
		}

		// A run held in the engine: the page says it runs and reloads;
		// once done, it shows the run's figures and stops reloading.
		area.engine.gate.Lock()
		st, loc, _ = h.postForm(t, admin, page+"/run", nil)
		if st != http.StatusSeeOther || loc != page+"?done=run" {
			area.engine.gate.Unlock()
			t.Fatalf("run: %d to %q", st, loc)
		}
		body = waitTranslation(t, h, admin, page, "the run under way", func(b string) bool { return strings.Contains(b, "A run is under way.") })
		area.engine.gate.Unlock()
		if !strings.Contains(body, `<meta http-equiv="refresh" content="3; url=`+page+`">`) || !strings.Contains(body, ">Running</span>") {
			t.Errorf("the page of a running translation does not reload:\n%s", problemText(body))
		}
		body = waitTranslation(t, h, admin, page, "the run completed", func(b string) bool { return strings.Contains(b, ">Completed</span>") })
		for _, want := range []string{"Up to date with the source.", "<dt>Runs completed</dt><dd>1</dd>", "<dt>Pages translated</dt><dd>2</dd>",
			"<dt>Last run</dt><dd>2 pages, "} {
			if !strings.Contains(body, want) {
				t.Errorf("the completed translation's page lacks %q\n%s", want, problemText(body))
			}
		}
		if strings.Contains(body, "http-equiv") {
			t.Error("the page of a completed translation still reloads")
		}
		if got := area.engine.seen(); len(got) == 0 || got[0] != "Keep product names.\nUse the informal you.\nNever translate Quire." {
			t.Errorf("the engine was given the instructions %q", got)
		}
		v, err = area.svc.Get(ctx, h.Org, id)
		if err != nil {
			t.Fatal(err)
		}
		words := v.TotalWords
		if words == 0 || v.Runs != 1 {
			t.Fatalf("after a run: %d runs, %d words", v.Runs, words)
		}
		st, _, body = h.get(t, admin, list)
		for _, want := range []string{`<a href="` + page + `">Handbook</a>`, "English → German", ">Completed</span>", "2 pages, " + strconv.Itoa(words) + " words<br>",
			`<span class="muted">1 run</span>`, `<a href="/app/s/` + target.ID + `">`} {
			if st != http.StatusOK || !strings.Contains(body, want) {
				t.Errorf("the list lacks %q: %d\n%s", want, st, problemText(body))
			}
		}

		// Intro edited by hand in the target, then in the source: the
		// next run leaves it alone and the page lists it.
		h.writeAndMerge(t, target.ID, "By hand", service.ContentChange{Operation: service.OpUpdatePage, Page: src.Intro,
			Document: &service.DocumentInput{Markdown: ptr("Willkommen, von Hand geschrieben.\n")}})
		h.writeAndMerge(t, src.Space, "Source edits",
			service.ContentChange{Operation: service.OpUpdatePage, Page: src.Intro, Document: &service.DocumentInput{Markdown: ptr("Welcome, reader.\n")}},
			service.ContentChange{Operation: service.OpUpdatePage, Page: src.Setup, Document: &service.DocumentInput{Markdown: ptr("Install it.\n")}})
		st, _, body = h.get(t, admin, page)
		if st != http.StatusOK || !strings.Contains(body, "The source changed since the last run.") {
			t.Errorf("the page does not say the source changed: %d\n%s", st, problemText(body))
		}
		if st, _, _ := h.postForm(t, admin, page+"/run", nil); st != http.StatusSeeOther {
			t.Fatalf("second run: %d", st)
		}
		body = waitTranslation(t, h, admin, page, "the second run completed", func(b string) bool {
			return strings.Contains(b, "<dt>Runs completed</dt><dd>2</dd>")
		})
		c, err := h.Svc.Content(ctx, service.ContentRef{SpaceID: target.ID})
		if err != nil {
			t.Fatal(err)
		}
		intro, err := c.Page(ctx, src.Intro)
		if err != nil {
			t.Fatal(err)
		}
		path, err := c.Path(ctx, intro)
		if err != nil {
			t.Fatal(err)
		}
		want := `<li><a href="/app/s/` + target.ID + `/` + path + `">` + intro.Title + `</a></li>`
		if !strings.Contains(body, "The last run left these pages of the target alone") || !strings.Contains(body, want) {
			t.Errorf("the page does not list Intro, edited by hand (%s):\n%s", want, problemText(body))
		}
		if !strings.Contains(body, "<dt>Last run</dt><dd>1 page, ") {
			t.Errorf("the second run translated other than Setup alone:\n%s", problemText(body))
		}

		// Instructions edited, then removed.
		st, loc, _ = h.postForm(t, admin, page, url.Values{"instructions": {"Formal tone."}})
		if st != http.StatusSeeOther || loc != page+"?done=saved" {
			t.Fatalf("save instructions: %d to %q", st, loc)
		}
		if v, err = area.svc.Get(ctx, h.Org, id); err != nil {
			t.Fatal(err)
		}
		if d, err := document.Parse(v.Instructions); err != nil || len(d.Nodes) != 1 || d.PlainText() != "Formal tone." || v.Language != "de" {
			t.Fatalf("instructions saved as %s (%v), language %s", v.Instructions, err, v.Language)
		}
		if _, _, body = h.get(t, admin, loc); !strings.Contains(body, "Instructions saved.") || !strings.Contains(body, ">Formal tone.</textarea>") {
			t.Errorf("the page after saving:\n%s", problemText(body))
		}
		if st, _, _ = h.postForm(t, admin, page, url.Values{"instructions": {" \r\n "}}); st != http.StatusSeeOther {
			t.Fatalf("remove instructions: %d", st)
		}
		if v, err = area.svc.Get(ctx, h.Org, id); err != nil || v.Instructions != nil {
			t.Fatalf("instructions left as %s (%v)", v.Instructions, err)
		}

		// A run the engine fails: the page says why, and stops reloading.
		area.engine.mu.Lock()
		area.engine.fail = errors.New("engine out of order")
		area.engine.mu.Unlock()
		h.writeAndMerge(t, src.Space, "More edits",
			service.ContentChange{Operation: service.OpUpdatePage, Page: src.Setup, Document: &service.DocumentInput{Markdown: ptr("Install it now.\n")}})
		if st, _, _ := h.postForm(t, admin, page+"/run", nil); st != http.StatusSeeOther {
			t.Fatalf("failing run: %d", st)
		}
		body = waitTranslation(t, h, admin, page, "the run failed", func(b string) bool { return strings.Contains(b, "The last run failed.") })
		if !strings.Contains(body, "engine out of order") || !strings.Contains(body, `<span class="badge badge-danger">Pending</span>`) || strings.Contains(body, "http-equiv") {
			t.Errorf("the page of a failed run:\n%s", problemText(body))
		}

		// Delete: asked first, then done; the target space stays.
		st, _, body = h.postForm(t, admin, page+"/delete", nil)
		if st != http.StatusOK || !strings.Contains(body, "Delete the translation “Handbook in German”?") || !strings.Contains(body, "“Handbook (de)” stays") {
			t.Fatalf("delete without confirming: %d\n%s", st, problemText(body))
		}
		if _, err := area.svc.Get(ctx, h.Org, id); err != nil {
			t.Fatalf("the translation went before confirming: %v", err)
		}
		st, loc, _ = h.postForm(t, admin, page+"/delete", url.Values{"confirm": {"yes"}})
		if st != http.StatusSeeOther || loc != list+"?done=deleted" {
			t.Fatalf("delete: %d to %q", st, loc)
		}
		if _, err := area.svc.Get(ctx, h.Org, id); !quire.IsNotFound(err) {
			t.Fatalf("the deleted translation reads as %v", err)
		}
		if sp := spaceOf(t, h, target.ID); sp.DeletedAt != nil {
			t.Error("deleting the translation deleted its target space")
		}
		if _, _, body = h.get(t, admin, loc); !strings.Contains(body, "Translation deleted.") || !strings.Contains(body, "No space is translated yet.") {
			t.Errorf("the list after deleting:\n%s", problemText(body))
		}
		if st, _, _ = h.get(t, admin, page); st != http.StatusNotFound {
			t.Errorf("the deleted translation's page: %d", st)
		}
	}, trs.option(t))
}

// TestTranslationsRefused sends malformed forms, each answered with the
// form again naming its field and nothing created or changed, and checks
// that members below the create role read translations but change
// nothing, and that a guest does not see them.
func TestTranslationsRefused(t *testing.T) {
	t.Parallel()
	var trs translationsOf
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		area := trs.of(h)
		src := newTranslatedSource(t, h)
		admin := h.client(t, h.signIn(t, h.Admin))
		list := "/app/o/" + h.Org + "/translations"
		de := "de"
		v, err := area.svc.Create(ctx, h.Admin, h.Org, service.TranslationInput{SourceSpace: src.Space, SourceLanguage: "en", Language: &de,
			Instructions: []byte(`{"object":"document","data":{},"nodes":[{"object":"block","type":"heading-1","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Tone","marks":[]}]}]},{"object":"block","type":"paragraph","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Be brief.","marks":[]}]}]}]}`)})
		if err != nil {
			t.Fatal(err)
		}
		page := list + "/" + v.ID
		spaces := func() int {
			l, err := h.Svc.Spaces(ctx, h.Admin, h.Org, quire.Page{Limit: quire.MaxLimit})
			if err != nil {
				t.Fatal(err)
			}
			return len(l.Items)
		}
		before := spaces()

		long := strings.Repeat("é", 10001)
		for _, c := range []struct {
			form  url.Values
			field string
			says  string
		}{
			{url.Values{"source": {""}, "source_language": {"en"}, "language": {"fr"}}, "tr-source", "Source space must be chosen."},
			{url.Values{"source": {"nosuchspace"}, "source_language": {"en"}, "language": {"fr"}}, "tr-source", "Source space is not a space of this organization that you may read."},
			{url.Values{"source": {src.Space}, "source_language": {"klingon"}, "language": {"fr"}}, "tr-source-language", "Source language must be one of the listed languages."},
			{url.Values{"source": {src.Space}, "source_language": {"en"}, "language": {"xx"}}, "tr-language", "Language must be one of the listed languages."},
			{url.Values{"source": {src.Space}, "source_language": {"en"}}, "tr-language", "Language must be one of the listed languages."},
			{url.Values{"source": {src.Space}, "source_language": {"en"}, "language": {"en"}}, "tr-language", "Language must differ from the source language."},
			{url.Values{"source": {src.Space}, "source_language": {"en"}, "language": {"de"}}, "tr-language", "Language is taken: the source space already has a translation into this language."},
			{url.Values{"source": {src.Space}, "source_language": {"en"}, "language": {"fr"}, "instructions": {long}}, "tr-instructions", "Instructions must be at most 10000 characters (10001 given)."},
		} {
			st, _, body := h.postForm(t, admin, list, c.form)
			if st != http.StatusUnprocessableEntity || !strings.Contains(body, c.says) {
				t.Errorf("create %v: %d, want 422 saying %q\n%s", c.form, st, c.says, problemText(body))
				continue
			}
			if !regexp.MustCompile(`id="` + c.field + `"[^>]*aria-invalid="true"`).MatchString(body) {
				t.Errorf("create %v: the field %s is not marked invalid", c.form, c.field)
			}
			// The form keeps what was typed.
			if src := c.form.Get("source"); src != "" && strings.HasPrefix(c.field, "tr-language") && !strings.Contains(body, `<option value="`+src+`" selected>`) {
				t.Errorf("create %v: the source chosen is not kept", c.form)
			}
		}
		l, err := area.svc.List(ctx, h.Org, quire.Page{})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Items) != 1 || spaces() != before {
			t.Fatalf("refused forms created %d translations and %d spaces", len(l.Items)-1, spaces()-before)
		}

		// The instructions as the API set them: shown as text, with a
		// warning; too long, refused with nothing changed.
		st, _, body := h.get(t, admin, page)
		if st != http.StatusOK || !strings.Contains(body, ">Tone\n\nBe brief.</textarea>") || !strings.Contains(body, "saving keeps their text only") {
			t.Errorf("instructions with formatting: %d\n%s", st, problemText(body))
		}
		st, _, body = h.postForm(t, admin, page, url.Values{"instructions": {long}})
		if st != http.StatusUnprocessableEntity || !strings.Contains(body, "Instructions must be at most 10000 characters") ||
			!regexp.MustCompile(`id="tr-instructions"[^>]*aria-invalid="true"`).MatchString(body) || !strings.Contains(body, long+"</textarea>") {
			t.Errorf("too long instructions: %d\n%s", st, problemText(body))
		}
		if got, err := area.svc.Get(ctx, h.Org, v.ID); err != nil || string(got.Instructions) != string(v.Instructions) {
			t.Errorf("refused instructions changed them to %s (%v)", got.Instructions, err)
		}
		for _, path := range []string{list + "/nosuch", list + "/nosuch/run", list + "/nosuch/delete"} {
			if st, _, _ := h.postForm(t, admin, path, url.Values{"instructions": {"x"}, "confirm": {"yes"}}); st != http.StatusNotFound {
				t.Errorf("POST %s: %d, want 404", path, st)
			}
		}
		if st, _, _ := h.get(t, admin, list+"/nosuch"); st != http.StatusNotFound {
			t.Errorf("a missing translation: %d", st)
		}
		if st, _, body := h.get(t, admin, list+"?page=notacursor"); st != http.StatusBadRequest {
			t.Errorf("a bad page cursor: %d\n%s", st, problemText(body))
		}

		// An editor reads but changes nothing; a guest sees nothing.
		editor := h.client(t, h.signIn(t, h.newUser(t, "eve@acme.test", "Eve Editor", quire.RoleEdit)))
		st, _, body = h.get(t, editor, list)
		if st != http.StatusOK || !strings.Contains(body, `<a href="`+page+`">Handbook</a>`) || strings.Contains(body, "New translation") {
			t.Errorf("an editor's list: %d\n%s", st, problemText(body))
		}
		st, _, body = h.get(t, editor, page)
		if st != http.StatusOK || strings.Contains(body, "Run now") || strings.Contains(body, "<textarea") || !strings.Contains(body, "<p>Tone</p><p>Be brief.</p>") {
			t.Errorf("an editor's translation page: %d\n%s", st, problemText(body))
		}
		for _, c := range []struct {
			path string
			form url.Values
		}{
			{list, url.Values{"source": {src.Space}, "source_language": {"en"}, "language": {"fr"}}},
			{page, url.Values{"instructions": {"Taken over"}}},
			{page + "/run", nil},
			{page + "/delete", url.Values{"confirm": {"yes"}}},
		} {
			if st, _, body := h.postForm(t, editor, c.path, c.form); st != http.StatusForbidden || !strings.Contains(body, "your role here does not allow this") {
				t.Errorf("an editor's POST %s: %d", c.path, st)
			}
		}
		guestUser := h.newUser(t, "gus@acme.test", "Gus Guest", quire.RoleRead)
		none := quire.Role("")
		if _, err := h.Svc.UpdateMemberRole(ctx, h.Org, guestUser.ID, &none); err != nil {
			t.Fatal(err)
		}
		guest := h.client(t, h.signIn(t, guestUser))
		if st, _, _ := h.get(t, guest, list); st != http.StatusForbidden {
			t.Errorf("a guest's list: %d, want 403", st)
		}
		if _, _, body := h.get(t, guest, "/app/o/"+h.Org); strings.Contains(body, `href="`+list+`"`) {
			t.Error("a guest's navigation links to the translations")
		}
		got, err := area.svc.Get(ctx, h.Org, v.ID)
		if err != nil || string(got.Instructions) != string(v.Instructions) || got.State != quire.TranslationIdle {
			t.Errorf("refused requests changed the translation: %+v (%v)", got, err)
		}
		if len(area.engine.seen()) != 0 {
			t.Error("a refused run reached the engine")
		}
	}, trs.option(t))
}

// TestTranslationsPaging lists more translations than a page holds: the
// next page holds the rest, with a way back to the first.
func TestTranslationsPaging(t *testing.T) {
	t.Parallel()
	var trs translationsOf
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		area := trs.of(h)
		src := newTranslatedSource(t, h)
		langs := []string{"fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "yue", "ko", "ar", "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el"}
		for _, lang := range langs {
			if _, err := area.svc.Create(ctx, h.Admin, h.Org, service.TranslationInput{SourceSpace: src.Space, SourceLanguage: "en", Language: &lang}); err != nil {
				t.Fatal(err)
			}
		}
		admin := h.client(t, h.signIn(t, h.Admin))
		list := "/app/o/" + h.Org + "/translations"
		st, _, body := h.get(t, admin, list)
		next := regexp.MustCompile(`<a class="btn" href="([^"]+)" rel="next">Next page</a>`).FindStringSubmatch(body)
		if st != http.StatusOK || strings.Count(body, "English → ") != 20 || next == nil || strings.Contains(body, "First page") {
			t.Fatalf("first page: %d, %d rows\n%s", st, strings.Count(body, "English → "), problemText(body))
		}
		// Translations made in the same millisecond are in the order of
		// their ids: which one is left for the second page is not the
		// test's to say, only that each is on exactly one page.
		target := regexp.MustCompile(`English → ([^<]+)<`)
		seen := map[string]int{}
		for _, m := range target.FindAllStringSubmatch(body, -1) {
			seen[m[1]]++
		}
		st, _, body = h.get(t, admin, strings.ReplaceAll(next[1], "&amp;", "&"))
		if st != http.StatusOK || strings.Count(body, "English → ") != 1 ||
			!strings.Contains(body, `<a class="btn" href="`+list+`">First page</a>`) || strings.Contains(body, "Next page") {
			t.Fatalf("second page: %d\n%s", st, problemText(body))
		}
		for _, m := range target.FindAllStringSubmatch(body, -1) {
			seen[m[1]]++
		}
		if len(seen) != len(langs) {
			t.Fatalf("the two pages list %d translations, want %d: %v", len(seen), len(langs), seen)
		}
		for name, n := range seen {
			if n != 1 {
				t.Errorf("%s is listed %d times", name, n)
			}
		}
	}, trs.option(t))
}

// TestTranslationsUnavailable shows the translations of a server without
// the feature as not available, not as an error of ours.
func TestTranslationsUnavailable(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sqlite")
	admin := h.client(t, h.signIn(t, h.Admin))
	st, _, body := h.get(t, admin, "/app/o/"+h.Org+"/translations")
	if st != http.StatusServiceUnavailable || !strings.Contains(body, "Translations are not available on this server.") {
		t.Errorf("translations without the service: %d\n%s", st, problemText(body))
	}
}
