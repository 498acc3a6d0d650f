package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"quire/internal/fetch"
	"quire/internal/service"
	"quire/internal/translate"
	"quire/internal/translate/translatetest"
)

// switchTranslator is the engine of a test server, chosen by each test.
type switchTranslator struct {
	mu sync.Mutex
	tr translate.Translator
}

// use makes translation runs go to tr.
func (s *switchTranslator) use(tr translate.Translator) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tr = tr
}

// Translate implements translate.Translator.
func (s *switchTranslator) Translate(ctx context.Context, r translate.Request) ([]string, error) {
	s.mu.Lock()
	tr := s.tr
	s.mu.Unlock()
	if tr == nil {
		return nil, errors.New("no engine chosen by this test")
	}
	return tr.Translate(ctx, r)
}

// useEngine starts a fake engine of a kind and makes the server's runs
// use it.
func (ts *testServer) useEngine(t *testing.T, kind string) *translatetest.Server {
	t.Helper()
	srv := translatetest.Start(t, kind)
	e, err := translate.New(srv.URL, translate.Options{Fetch: fetch.New(fetch.Config{AllowLocal: true}),
		Key: translatetest.Key, Backoff: time.Millisecond, RatePerSecond: 1000, BatchSegments: 40})
	if err != nil {
		t.Fatalf("engine %s: %v", kind, err)
	}
	ts.Translator.use(e)
	return srv
}

// translationsPath is the path of the organization's translations.
func (ts *testServer) translationsPath(suffix string) string {
	return ts.OrgPath("/translations" + suffix)
}

// newTranslation creates a translation of a space from English as the
// admin.
func (ts *testServer) newTranslation(t *testing.T, space, lang string) map[string]any {
	t.Helper()
	return ts.must(t, http.StatusCreated, "POST", ts.translationsPath(""), ts.token(cAdmin),
		map[string]any{"source": map[string]any{"space": space, "language": "en"}, "language": lang})
}

// runTranslation asks for a run and waits until the translation has
// completed runs runs or recorded an error.
func (ts *testServer) runTranslation(t *testing.T, id string, runs int) map[string]any {
	t.Helper()
	r := ts.send(t, "POST", ts.translationsPath("/"+id+"/run"), ts.token(cAdmin), nil)
	if r.Status != http.StatusNoContent || len(r.Body) != 0 {
		t.Fatalf("run: %d %s", r.Status, r.Body)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		tr := ts.must(t, http.StatusOK, "GET", ts.translationsPath("/"+id), ts.token(cAdmin), nil)
		if tr["status"] != "running" && (num(tr, "stats.runs") >= runs || str(tr, "error") != "") {
			return tr
		}
		if time.Now().After(deadline) {
			t.Fatalf("translation still not run: %v", tr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// num reads a number at a path.
func num(v any, path string) int {
	f, _ := field(v, path).(float64)
	return int(f)
}

// docJSON builds a document of blocks.
func docJSON(blocks ...any) map[string]any {
	return map[string]any{"document": map[string]any{"object": "document", "data": map[string]any{}, "nodes": blocks}}
}

// textNode is a text node of one leaf.
func textNode(text string) map[string]any {
	return map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": text, "marks": []any{}}}}
}

// richMarkdown are pages with every kind of block; %s is a file id.
func richMarkdown(file string) []string {
	return []string{
		"## Overview\n\nQuire keeps your **documentation** in _one place_. Press <kbd>Ctrl</kbd> + <kbd>K</kbd> to search.\\\nFormulas like $$a^2 + b^2 = c^2$$ render inline, and `quire serve` starts it. Made with ❤️ by the team.\n\n" +
			"{% hint style=\"info\" %}\n#### Good to know\n\nHints can hold lists:\n\n* first point\n* second point with `code`\n\n```bash\nquire serve --addr :8080\n```\n{% endhint %}\n",
		"### Install\n\n{% tabs %}\n{% tab title=\"Linux\" %}\n```bash\ncurl -fsSL https://example.com/install.sh | sh\n```\n{% endtab %}\n\n{% tab title=\"Docker\" %}\nRun the image.\n\n```bash\ndocker run -p 8080:8080 quire/quire\n```\n{% endtab %}\n{% endtabs %}\n\n" +
			"{% stepper %}\n{% step %}\n#### Create a space\n\nOpen the dashboard and click **New space**.\n{% endstep %}\n\n{% step %}\n#### Invite your team\n\n1. Open _Settings_.\n2. Add members.\n{% endstep %}\n{% endstepper %}\n",
		"# Pictures\n\nPictures first.\n\n{% file src=\"" + file + "\" %}\nEmployee handbook\n{% endfile %}\n\n<figure><img src=\"" + file + "\" alt=\"The dashboard\"><figcaption><p>The <strong>dashboard</strong> after setup</p></figcaption></figure>\n\n![The logo](" + file + ")\n",
		"<details>\n\n<summary>Plan limits</summary>\n\n| Plan       | Spaces | Members |\n| ---------- | :----: | ------: |\n| Free       | 1      | 5       |\n| Team plan  | 10     | 50      |\n\n</details>\n",
		"{% columns %}\n{% column width=\"50%\" %}\n#### Left\n\nText on the left with a ~~removed~~ word.\n{% endcolumn %}\n\n{% column width=\"50%\" %}\n{% embed url=\"https://www.youtube.com/watch?v=dQw4w9WgXcQ\" %}\n{% endcolumn %}\n{% endcolumns %}\n\n" +
			"- [ ] write docs\n- [x] ship it\n\n> \"Docs are a product.\"\n> — Someone\n\n$$\n\\int_0^1 x\\,dx = \\frac{1}{2}\n$$\n\n---\n\nSee [the site](https://example.com/docs) for more.\n",
	}
}

// referenceMarkdown is the second half of the document package's sample
// page: cards and HTML tables, highlighted code, an aligned image,
// footnotes, a mention, an HTML comment, OpenAPI and Swagger blocks and a
// changelog.
func referenceMarkdown(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "document", "testdata", "page.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, ref, ok := strings.Cut(string(b), "## Reference")
	if !ok {
		t.Fatal("page.md has no Reference section")
	}
	return "## Reference" + ref
}

// sourceSpace is a space of twenty pages with every kind of block, a
// file, and links between its pages.
type sourceSpace struct {
	ID    string
	Pages map[string]string // title → id
	File  string
}

// newSourceSpace fills a space of twenty pages.
func (ts *testServer) newSourceSpace(t *testing.T) *sourceSpace {
	t.Helper()
	s := &sourceSpace{ID: ts.newSpace(t, "Handbook"), Pages: map[string]string{}}
	cr := str(ts.newChangeRequest(t, s.ID, "Content"), "id")
	res := ts.writeContent(t, s.ID, cr, insertFiles(inlineFile("logo.png", pngBytes(t, 2, 2))))
	s.File = insertedFileID(t, res, 0)
	var changes []map[string]any
	titles := []string{"Overview", "Install", "Media", "Limits", "Layout", "Reference"}
	for i, m := range append(richMarkdown(s.File), referenceMarkdown(t)) {
		changes = append(changes, insertPage(titles[i], m, "ref", titles[i], "description", "About "+strings.ToLower(titles[i])+"."))
	}
	for i := 7; i <= 19; i++ {
		c := insertPage(fmt.Sprintf("Topic %d", i), fmt.Sprintf("Body of topic %d.\n\n1. One step of topic %d.\n2. Another step.\n\n```go\nfmt.Println(%d)\n```\n", i, i, i),
			"ref", fmt.Sprintf("Topic %d", i))
		if i%3 == 0 {
			c["into"] = "Overview"
		}
		changes = append(changes, c)
	}
	res = ts.writeContent(t, s.ID, cr, changes...)
	for i := range changes {
		s.Pages[changes[i]["title"].(string)] = changedPage(t, res, i)
	}
	link := map[string]any{"object": "block", "type": "paragraph", "data": map[string]any{}, "nodes": []any{
		textNode("Read the "),
		map[string]any{"object": "inline", "type": "link", "data": map[string]any{"ref": map[string]any{"kind": "page", "page": s.Pages["Install"]}},
			"nodes": []any{textNode("install guide")}},
		textNode(" and the "),
		map[string]any{"object": "inline", "type": "link", "data": map[string]any{"ref": map[string]any{"kind": "page", "page": s.Pages["Limits"], "space": s.ID}},
			"nodes": []any{textNode("limits")}},
		textNode(" first."),
	}}
	card := map[string]any{"object": "block", "type": "content-ref", "isVoid": true, "data": map[string]any{"ref": map[string]any{"kind": "page", "page": s.Pages["Media"]}}}
	res = ts.writeContent(t, s.ID, cr, map[string]any{"operation": "insert_page", "title": "Links", "document": docJSON(link, card)})
	s.Pages["Links"] = changedPage(t, res, 0)
	ts.mergeCR(t, s.ID, cr)
	if len(s.Pages) != 20 {
		t.Fatalf("%d pages, want 20", len(s.Pages))
	}
	return s
}

// pageDocument reads a page's JSON document in a space.
func (ts *testServer) pageDocument(t *testing.T, space, page string) map[string]any {
	t.Helper()
	p := ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+space+"/content/page/"+page, ts.token(cAdmin), nil)
	d, _ := p["document"].(map[string]any)
	return d
}

// blockOutline lists the blocks and inlines of a document, depth first, as
// type#key, with the text of code lines and the references kept.
func blockOutline(v any) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if o, _ := x["object"].(string); o == "block" || o == "inline" {
				line := fmt.Sprintf("%s#%v", x["type"], x["key"])
				if x["type"] == "code-line" || x["type"] == "math" || x["type"] == "inline-math" {
					line += fmt.Sprintf(" %v", plain(x))
				}
				if d, ok := x["data"].(map[string]any); ok && d["ref"] != nil {
					line += fmt.Sprintf(" ref=%v", d["ref"])
				}
				out = append(out, line)
			}
			for _, k := range []string{"nodes", "fragments"} {
				walk(x[k])
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// plain is the text of a node's leaves and data formula.
func plain(v any) string {
	var b strings.Builder
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if s, ok := x["text"].(string); ok {
				b.WriteString(s)
			}
			if d, ok := x["data"].(map[string]any); ok {
				if f, ok := d["formula"].(string); ok {
					b.WriteString(f)
				}
			}
			for _, k := range []string{"leaves", "nodes", "fragments"} {
				walk(x[k])
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return b.String()
}

func TestTranslationRunsEveryEngine(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		for _, kind := range []string{translate.LibreTranslate, translate.DeepL, translate.OpenAI} {
			t.Run(kind, func(t *testing.T) {
				engine := ts.useEngine(t, kind)
				src := ts.newSourceSpace(t)
				tr := ts.newTranslation(t, src.ID, "fr")
				id := str(tr, "id")
				target := str(tr, "result.space")
				wantFields(t, tr, map[string]any{"object": "translation", "status": "pending", "language": "fr",
					"source.space": src.ID, "source.language": "en", "stats.runs": 0.0})
				sp := ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+target, ts.token(cAdmin), nil)
				wantFields(t, sp, map[string]any{"title": "Handbook (fr)"})

				done := ts.runTranslation(t, id, 1)
				wantFields(t, done, map[string]any{"status": "completed", "stats.runs": 1.0, "stats.latestPages": 20.0, "stats.totalPages": 20.0})
				if str(done, "error") != "" || num(done, "stats.latestWords") == 0 || str(done, "result.revision") == "" {
					t.Fatalf("first run: %v", done)
				}
				for _, k := range engine.Keys() {
					if k != translatetest.Key {
						t.Errorf("engine got key %q", k)
					}
				}
				for _, seg := range engine.Segments() {
					for _, kept := range []string{"quire serve", "curl -fsSL", "fmt.Println", "a^2", "https://"} {
						if strings.Contains(seg, kept) {
							t.Errorf("segment %q holds %q, which is not to be translated", seg, kept)
						}
					}
				}

				// Same pages, same blocks and keys, code untouched, text
				// translated, links to the source's pages now to the target's.
				for title, page := range src.Pages {
					a, b := ts.pageDocument(t, src.ID, page), ts.pageDocument(t, target, page)
					oa, ob := blockOutline(a), blockOutline(b)
					want := strings.ReplaceAll(strings.Join(oa, "\n"), "space:"+src.ID, "space:"+target)
					if strings.Join(ob, "\n") != want {
						t.Errorf("%s: structure changed:\n%s\nwant\n%s", title, strings.Join(ob, "\n"), want)
					}
					if !strings.Contains(plain(b), "] ") {
						t.Errorf("%s: not translated: %s", title, plain(b))
					}
					p := ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+target+"/content/page/"+page, ts.token(cAdmin), nil)
					if !strings.HasPrefix(str(p, "title"), "[") {
						t.Errorf("%s: title %q not translated", title, str(p, "title"))
					}
				}
				var all []string
				for _, page := range src.Pages {
					all = append(all, blockOutline(ts.pageDocument(t, target, page))...)
				}
				joined := strings.Join(all, "\n")
				for _, typ := range []string{"heading-1", "heading-2", "heading-3", "paragraph", "list-ordered", "list-unordered",
					"list-tasks", "list-item", "hint", "tabs", "tabs-item", "stepper", "stepper-step", "code", "code-line", "images",
					"image", "expandable", "table", "columns", "column", "embed", "blockquote", "math", "divider", "content-ref",
					"swagger", "openapi-operation", "file", "updates", "update", "link", "annotation", "inline-math", "emoji", "mention"} {
					if !strings.Contains(joined, "\n"+typ+"#") && !strings.HasPrefix(joined, typ+"#") {
						t.Errorf("the space has no %s: the test does not cover it", typ)
					}
				}
				links := blockOutline(ts.pageDocument(t, target, src.Pages["Links"]))
				if !strings.Contains(strings.Join(links, "\n"), "space:"+target) {
					t.Errorf("link to the source's page still points at the source: %v", links)
				}

				// A second run after one page changes sends only that page.
				cr := str(ts.newChangeRequest(t, src.ID, "Edit"), "id")
				ts.writeContent(t, src.ID, cr, updatePage(src.Pages["Topic 9"], "document", md("Changed body of topic 9.")))
				ts.mergeCR(t, src.ID, cr)
				wantFields(t, ts.must(t, http.StatusOK, "GET", ts.translationsPath("/"+id), ts.token(cAdmin), nil),
					map[string]any{"status": "pending"})
				engine.Reset()
				done = ts.runTranslation(t, id, 2)
				wantFields(t, done, map[string]any{"status": "completed", "stats.latestPages": 1.0, "stats.totalPages": 20.0})
				segs := engine.Segments()
				if len(segs) == 0 {
					t.Fatal("second run sent nothing")
				}
				for _, s := range segs {
					if !strings.Contains(s, "Topic 9") && !strings.Contains(s, "topic 9.") {
						t.Errorf("second run sent %q, not of the changed page", s)
					}
				}
				if got := plain(ts.pageDocument(t, target, src.Pages["Topic 9"])); !strings.Contains(got, "] Changed body of topic 9.") {
					t.Errorf("changed page: %q", got)
				}

				// A page edited by hand in the target survives a run.
				tcr := str(ts.newChangeRequest(t, target, "Hand edit"), "id")
				ts.writeContent(t, target, tcr, updatePage(src.Pages["Topic 10"], "document", md("Edited by hand.")))
				ts.mergeCR(t, target, tcr)
				cr = str(ts.newChangeRequest(t, src.ID, "Edit again"), "id")
				ts.writeContent(t, src.ID, cr, updatePage(src.Pages["Topic 10"], "document", md("Source moved on.")),
					updatePage(src.Pages["Topic 11"], "document", md("Eleven changed.")))
				ts.mergeCR(t, src.ID, cr)
				done = ts.runTranslation(t, id, 3)
				wantFields(t, done, map[string]any{"status": "completed", "stats.latestPages": 1.0,
					"editedPages": []any{src.Pages["Topic 10"]}})
				if got := plain(ts.pageDocument(t, target, src.Pages["Topic 10"])); got != "Edited by hand." {
					t.Errorf("hand edit lost: %q", got)
				}
				if got := plain(ts.pageDocument(t, target, src.Pages["Topic 11"])); !strings.Contains(got, "] Eleven changed.") {
					t.Errorf("other page not translated: %q", got)
				}
			})
		}
	})
}

func TestTranslationLifecycle(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		coll := ts.newCollection(t, "Guides", "")
		src := ts.newSpaceIn(t, "A handbook with a rather long title to shorten", coll)
		cr := str(ts.newChangeRequest(t, src, "Content"), "id")
		page := changedPage(t, ts.writeContent(t, src, cr, insertPage("Welcome", "Hello **world**.")), 0)
		ts.mergeCR(t, src, cr)

		instructions := map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{
			map[string]any{"object": "block", "type": "paragraph", "data": map[string]any{}, "nodes": []any{textNode("Use the informal you.")}}}}
		tr := ts.must(t, http.StatusCreated, "POST", ts.translationsPath(""), admin, map[string]any{
			"source": map[string]any{"space": src, "language": "en"}, "language": "de", "instructions": instructions})
		id, target := str(tr, "id"), str(tr, "result.space")
		wantFields(t, tr, map[string]any{"status": "pending", "permissions.edit": true, "instructions.nodes.0.type": "paragraph",
			"urls.location": testBaseURL + "/v1/orgs/" + ts.Org + "/translations/" + id})
		sp := ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+target, admin, nil)
		if title := str(sp, "title"); title != "A handbook with a rather long title to shorte (de)" || str(sp, "parent") != coll {
			t.Errorf("target space: %q in %q", title, str(sp, "parent"))
		}

		// One translation per source and language.
		ts.mustError(t, http.StatusConflict, "POST", ts.translationsPath(""), admin, map[string]any{
			"source": map[string]any{"space": src, "language": "en"}, "language": "de"})
		ts.mustError(t, http.StatusNotFound, "GET", ts.translationsPath("/nosuch"), admin, nil)
		ts.mustError(t, http.StatusNotFound, "POST", ts.translationsPath("/nosuch/run"), admin, nil)
		ts.mustError(t, http.StatusNotFound, "PUT", ts.translationsPath("/nosuch"), admin, map[string]any{"instructions": nil})
		list := ts.must(t, http.StatusOK, "GET", ts.translationsPath(""), ts.token(cRead), nil)
		wantFields(t, list, map[string]any{"count": 1.0, "items.0.id": id, "items.0.permissions.edit": false})

		// A refused key: the run records why, without the key.
		srv := translatetest.Start(t, translate.DeepL)
		e, err := translate.New(srv.URL, translate.Options{Fetch: fetch.New(fetch.Config{AllowLocal: true}),
			Key: "wrong-secret-key", Backoff: time.Millisecond, RatePerSecond: 1000})
		if err != nil {
			t.Fatal(err)
		}
		ts.Translator.use(e)
		failed := ts.runTranslation(t, id, 1)
		if msg := str(failed, "error"); !strings.Contains(msg, "403") || strings.Contains(string(mustJSON(t, failed)), "wrong-secret-key") {
			t.Errorf("failed run: %v", failed)
		}
		wantFields(t, failed, map[string]any{"status": "pending", "stats.runs": 0.0})

		// Runs with the engine; the instructions reach it.
		engine := ts.useEngine(t, translate.DeepL)
		done := ts.runTranslation(t, id, 1)
		wantFields(t, done, map[string]any{"status": "completed"})
		if has(done, "error") {
			t.Errorf("error left after a run that worked: %v", done)
		}
		if ctxs := engine.Prompts(); len(ctxs) == 0 || ctxs[0] != "Use the informal you." {
			t.Errorf("instructions sent as %q", ctxs)
		}
		p := ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+target+"/content/page/"+page, admin, nil)
		wantFields(t, p, map[string]any{"title": "[de] Welcome"})

		// A new language translates every page again.
		upd := ts.must(t, http.StatusOK, "PUT", ts.translationsPath("/"+id), admin, map[string]any{"instructions": nil, "language": "it"})
		wantFields(t, upd, map[string]any{"language": "it", "status": "pending", "instructions.nodes": []any{}})
		wantFields(t, ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+target, admin, nil), map[string]any{"language": "it"})
		done = ts.runTranslation(t, id, 2)
		p = ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+target+"/content/page/"+page, admin, nil)
		wantFields(t, p, map[string]any{"title": "[it] Welcome"})
		wantFields(t, done, map[string]any{"stats.runs": 2.0, "stats.latestPages": 1.0, "stats.totalPages": 1.0})

		// Deleting keeps the target space.
		r := ts.send(t, "DELETE", ts.translationsPath("/"+id), admin, nil)
		if r.Status != http.StatusResetContent {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		r = ts.send(t, "DELETE", ts.translationsPath("/"+id), admin, nil)
		if r.Status != http.StatusNoContent {
			t.Fatalf("delete again: %d %s", r.Status, r.Body)
		}
		ts.must(t, http.StatusOK, "GET", "/v1/spaces/"+target+"/content/page/"+page, admin, nil)
	})
}

func TestTranslationWithoutEngine(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		src := ts.newSpace(t, "Handbook")
		tr := ts.newTranslation(t, src, "ja")
		none := service.NewTranslations(ts.Svc, nil)
		if err := none.RunJob(t.Context(), service.TranslationJob{Org: ts.Org, Translation: str(tr, "id"), User: ts.user(cAdmin).ID}); err != nil {
			t.Fatalf("RunJob: %v", err)
		}
		got := ts.must(t, http.StatusOK, "GET", ts.translationsPath("/"+str(tr, "id")), ts.token(cAdmin), nil)
		if msg := str(got, "error"); !strings.Contains(msg, "no translation engine is configured") || !strings.Contains(msg, "--translator") {
			t.Errorf("error %q", msg)
		}
		wantFields(t, got, map[string]any{"status": "pending", "stats.runs": 0.0})
	})
}

// mustJSON encodes a value.
func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
