package app_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"quire/internal/service"
)

// TestTranslationsBrowser creates a translation from the organization's
// translations page in a real browser, runs it, and sees it complete as
// the page reloads on its own (no script does it); a page of the target
// edited by hand is then listed after the next run. Screenshots of the
// translation's page and of the list, at desktop and phone widths in
// both themes.
func TestTranslationsBrowser(t *testing.T) {
	var trs translationsOf
	h := newHarness(t, "sqlite", trs.option(t))
	ctx := context.Background()
	src := newTranslatedSource(t, h)
	b := newBrowser(t)
	h.signInBrowser(t, b, h.Admin)

	b.Open(h.URL+"/app/o/"+h.Org, http.StatusOK)
	b.Click("link", "Translations")
	b.H1("Translations")
	choose(b, "Source space", src.Space)
	choose(b, "Translate into", "fr")
	b.Fill("textbox", "Instructions", "Keep product names in English.\n\nUse a friendly, direct tone.")
	b.Click("button", "Create translation")
	waitText(b, "Translation created.")
	b.H1("Handbook in French")

	text := func() string { return b.JS(`document.querySelector("main").innerText`) }
	// waitDone waits for the page, reloading itself, to show a run's end.
	waitDone := func(want string) {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
			got, err := b.TryJS(`document.readyState === "complete" ? document.querySelector("main").innerText : ""`)
			if err == nil && strings.Contains(got, want) && strings.Contains(got, "Up to date with the source.") {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the translation's page never showed %q:\n%s", want, got)
			}
		}
	}
	b.Click("button", "Run now")
	waitText(b, "Run queued.")
	waitDone("Runs completed\n1")
	b.WaitFor(`document.querySelector('meta[http-equiv="refresh"]') === null`)
	got := text()
	for _, want := range []string{"Completed", "Pages translated\n2", "Handbook (fr)"} {
		if !strings.Contains(got, want) {
			t.Errorf("the completed translation's page does not show %q:\n%s", want, got)
		}
	}

	// A page of the target edited by hand, then in the source: the next
	// run leaves it alone and the page lists it.
	target := strings.TrimPrefix(b.JS(`document.querySelector('dd a[href^="/app/s/"]:not([href="/app/s/`+src.Space+`"])').getAttribute("href")`), "/app/s/")
	h.writeAndMerge(t, target, "By hand", service.ContentChange{Operation: service.OpUpdatePage, Page: src.Intro,
		Document: &service.DocumentInput{Markdown: ptr("Bienvenue, écrit à la main.\n")}})
	h.writeAndMerge(t, src.Space, "Source edits",
		service.ContentChange{Operation: service.OpUpdatePage, Page: src.Intro, Document: &service.DocumentInput{Markdown: ptr("Welcome, reader.\n")}},
		service.ContentChange{Operation: service.OpUpdatePage, Page: src.Setup, Document: &service.DocumentInput{Markdown: ptr("Install it.\n")}})
	b.Click("button", "Run now")
	waitText(b, "Run queued.")
	waitDone("Runs completed\n2")
	if !b.Has("link", "[fr] Intro") {
		t.Errorf("the page edited by hand is not listed:\n%s", text())
	}
	b.ShootViews("app-translation", "main h1")

	// The list, with a second translation not run yet.
	de := "de"
	if _, err := trs.of(h).svc.Create(ctx, h.Admin, h.Org, service.TranslationInput{SourceSpace: src.Space, SourceLanguage: "en", Language: &de}); err != nil {
		t.Fatal(err)
	}
	b.Open(h.URL+"/app/o/"+h.Org+"/translations", http.StatusOK)
	b.H1("Translations")
	got = text()
	for _, want := range []string{"English → French", "Completed", "English → German", "Not run yet.", "New translation"} {
		if !strings.Contains(got, want) {
			t.Errorf("the list does not show %q:\n%s", want, got)
		}
	}
	b.ShootViews("app-translations", "main h1")
}
