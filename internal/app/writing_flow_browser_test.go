package app_test

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/testutil"
)

// editorValue is the value of the open block editor's textarea.
func editorValue(b *testutil.BrowserPage) string {
	return b.JS(`document.querySelector(".block-editor textarea").value`)
}

// TestWritingFlowBrowser follows one change from writing to the
// published site, two people in two browsers. The writer opens a page of
// a space published on a site, clicks Edit, edits the paragraph in place
// (autosaved), inserts a hint by typing "/" on an empty line, pastes an
// image and asks the reviewer for a review on the change request page.
// The reviewer finds it in their inbox, comments on the hint and
// requests changes; the writer replies and fixes the hint; the reviewer
// approves and merges under a rule needing their approval (Merge
// disabled before), and the published page shows the new text.
// Screenshots of the editor, the insert menu, the change request page
// and the inbox.
func TestWritingFlowBrowser(t *testing.T) {
	h := newHarness(t, "sqlite")
	ctx := context.Background()
	writerU := h.newUser(t, "wendy@acme.test", "Wendy Writer", quire.RoleEdit)
	reviewerU := h.newUser(t, "rita@acme.test", "Rita Reviewer", quire.RoleEdit)
	sv, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Handbook"})
	if err != nil {
		t.Fatal(err)
	}
	space := sv.Space.ID
	sites := service.NewSites(h.Svc)
	site, err := sites.CreateSite(ctx, h.Admin, h.Org, service.SiteCreate{Title: "Handbook site", Spaces: []string{space}})
	if err != nil {
		t.Fatal(err)
	}
	name, published, vis := "handbook", true, quire.VisibilityPublic
	if _, err := sites.UpdateSite(ctx, h.Org, site.ID, quire.SiteUpdate{Basename: &name, Published: &published, Visibility: &vis}, nil); err != nil {
		t.Fatal(err)
	}
	h.writeAndMerge(t, space, "First pages", pageChange("welcome", "Welcome", "welcome", "Welcome to the handbook.", nil))
	rules := quire.MergeRules{Type: quire.MergeRulesRules, Rules: []quire.MergeRule{{Rule: quire.RuleSpecificReviewers, Users: []string{reviewerU.ID}}}}
	if _, err := h.Svc.UpdateSpace(ctx, h.Admin, space, quire.SpaceUpdate{MergeRules: &rules}); err != nil {
		t.Fatal(err)
	}
	published0 := fetchSite(t, h.URL+"/sites/handbook/welcome")
	if !strings.Contains(published0, "Welcome to the handbook.") {
		t.Fatalf("the published page is not served before the change: %.300s", published0)
	}

	// The writer edits the page in place.
	writer := newBrowser(t)
	writer.Viewport(1280, 900, false)
	h.signInBrowser(t, writer, writerU)
	writer.Open(h.URL+"/app/s/"+space+"/welcome", http.StatusOK)
	writer.H1("Welcome")
	writer.Click("button", "Edit")
	writer.WaitFor(`location.pathname.indexOf("/~/changes/") > 0 && document.querySelector("[data-edit-page]")`)
	// The block's control by keyboard: focus it, Enter opens the editor.
	writer.JS(`document.querySelector("a.block-edit").focus(); ""`)
	writer.Do(chromedp.KeyEvent(kb.Enter))
	writer.WaitFor(`document.querySelector(".block-editor textarea[data-md-ready]")`)
	writer.Fill("textbox", "Markdown of the block", "Welcome to the team handbook.")
	writer.WaitFor(`document.querySelector(".block-editor [role=status]").textContent === "Saved"`)

	// "/" on an empty line opens the insert menu; the hint is chosen.
	writer.JS(`(function(){var t=document.querySelector(".block-editor textarea");t.focus();t.setSelectionRange(t.value.length,t.value.length);return ""})()`)
	writer.Do(chromedp.KeyEvent(kb.Enter), chromedp.KeyEvent(kb.Enter), chromedp.KeyEvent("/"))
	writer.WaitFor(`!document.getElementById("md-insert-menu").hidden`)
	if !writer.Has("listbox", "Insert block") {
		t.Fatal("no insert menu in the block editor")
	}
	writer.Do(chromedp.KeyEvent("info"))
	writer.WaitFor(`[...document.querySelectorAll("#md-insert-menu [role=option]")].some(o => o.textContent.indexOf("Info hint") >= 0)`)
	writer.Shoot("writing-flow-insert-menu.png")
	writer.Click("option", "Info hint")
	writer.WaitFor(`document.getElementById("md-insert-menu").hidden`)
	if v := editorValue(writer); !strings.Contains(v, `{% hint style="info" %}`) {
		t.Fatalf("the hint was not inserted: %q", v)
	}
	// The hint's placeholder text becomes the writer's.
	writer.JS(`(function(){var t=document.querySelector(".block-editor textarea");` +
		`t.value=t.value.replace(/(\{% hint style="info" %\}\n)[^\n]*/, "$1Ask in the chat first.");` +
		`t.dispatchEvent(new Event("input",{bubbles:true}));t.focus();t.setSelectionRange(t.value.length,t.value.length);return ""})()`)
	writer.Do(chromedp.KeyEvent(kb.Enter), chromedp.KeyEvent(kb.Enter))

	// A pasted image is uploaded and inserted.
	writer.JS(`(function(){var bin=atob("` + base64.StdEncoding.EncodeToString(pngBytes(t)) + `");var a=new Uint8Array(bin.length);` +
		`for(var i=0;i<bin.length;i++)a[i]=bin.charCodeAt(i);var dt=new DataTransfer();dt.items.add(new File([a],"team.png",{type:"image/png"}));` +
		`document.querySelector(".block-editor textarea").dispatchEvent(new ClipboardEvent("paste",{clipboardData:dt,bubbles:true,cancelable:true}));return ""})()`)
	writer.WaitFor(`/!\[team\]\(\w+\)/.test(document.querySelector(".block-editor textarea").value)`)
	writer.WaitFor(`document.querySelector(".block-editor [role=status]").textContent === "Saved"`)
	writer.Shoot("writing-flow-editor.png")
	writer.Click("button", "Save")
	writer.WaitFor(`!document.querySelector(".block-editor") && document.querySelector("main .body .hint")`)
	body := writer.JS(`document.querySelector("main .body").textContent`)
	if !strings.Contains(body, "Welcome to the team handbook.") || !strings.Contains(body, "Ask in the chat first.") {
		t.Fatalf("the edited page shows %q", body)
	}
	if writer.JS(`String(!!document.querySelector("main .body img"))`) != "true" {
		t.Fatal("the pasted image is not drawn")
	}

	// The writer opens the change request and asks for a review.
	m := regexp.MustCompile(`/~/changes/(\d+)/`).FindStringSubmatch(writer.JS(`location.pathname`))
	if m == nil {
		t.Fatalf("not in a change request: %s", writer.JS(`location.pathname`))
	}
	cr, err := h.Svc.ChangeRequest(ctx, space, m[1])
	if err != nil {
		t.Fatal(err)
	}
	crURL := h.URL + "/app/s/" + space + "/~/changes/" + m[1]
	subject := cr.Subject
	if subject == "" {
		subject = "Untitled change request"
	}
	writer.Click("link", "#"+m[1]+": "+subject)
	writer.WaitFor(`location.pathname.endsWith("/~/changes/` + m[1] + `")`)
	if writer.Has("button", "Ready for review") {
		writer.Click("button", "Ready for review")
		waitNotice(t, writer, "cr-open")
	}
	writer.Fill("combobox", "Request a review from", "user:"+reviewerU.ID)
	writer.Click("button", "Request review")
	waitNotice(t, writer, "cr-reviewers")
	writer.Shoot("writing-flow-change-request-writer.png")

	// The reviewer learns of it in the inbox.
	reviewer := newBrowser(t)
	reviewer.Viewport(1280, 900, false)
	h.signInBrowser(t, reviewer, reviewerU)
	reviewer.Open(h.URL+"/app/o/"+h.Org, http.StatusOK)
	if got := reviewer.JS(`document.querySelector("[data-inbox-count-value]").textContent`); got != "1" {
		t.Errorf("the reviewer's inbox count is %q, want 1", got)
	}
	reviewer.Click("link", "Inbox, 1 unread")
	reviewer.H1("Inbox")
	// The draft "Edit" opened has no subject: the notification names it
	// by number only.
	asked := "Unread: Wendy Writer asked you to review change request #" + m[1] + " in Handbook"
	if cr.Subject != "" {
		t.Fatalf("the draft has a subject %q", cr.Subject)
	}
	if !reviewer.Has("link", asked) {
		t.Fatalf("the inbox does not list %q: %s", asked, reviewer.JS(`document.querySelector("main").textContent`))
	}
	reviewer.Shoot("writing-flow-inbox.png")
	reviewer.Click("link", asked)
	reviewer.WaitFor(`location.pathname.endsWith("/~/changes/` + m[1] + `")`)
	if !disabled(reviewer, "Merge") {
		t.Fatal("Merge is enabled before the required approval")
	}

	// The reviewer comments on the hint in the change request's page.
	reviewer.Open(crURL+"/welcome", http.StatusOK)
	reviewer.H1("Welcome")
	hint := reviewer.JS(`document.querySelector(".block .hint").closest(".block").getAttribute("data-block")`)
	reviewer.JS(`(function(){var b=document.querySelector('[data-block="` + hint + `"] .block-comment');b.focus();b.click();return ""})()`)
	reviewer.Fill("textbox", "New comment", "Which chat? Name the channel.")
	reviewer.Click("button", "Comment")
	reviewer.WaitFor(`document.querySelectorAll("[data-thread]").length === 1`)
	if !strings.Contains(reviewer.JS(`document.querySelector("[data-thread]").getAttribute("data-block")`), hint) {
		t.Error("the comment is not on the hint")
	}
	reviewer.Open(crURL, http.StatusOK)
	reviewer.Fill("textbox", "Comment", "Please name the channel in the hint.")
	reviewer.Click("button", "Request changes")
	waitNotice(t, reviewer, "cr-changes-requested")

	// The writer replies and fixes the hint.
	writer.Open(crURL+"/welcome", http.StatusOK)
	writer.H1("Welcome")
	writer.Fill("textbox", "Reply to Rita Reviewer", "Good point, done.")
	writer.Click("button", "Reply")
	writer.WaitFor(`document.querySelector(".replies") && document.querySelector(".replies").textContent.indexOf("Good point, done.") >= 0`)
	writer.JS(`(function(){var b=document.querySelector('[data-block="` + hint + `"] .block-edit');b.click();return ""})()`)
	writer.WaitFor(`document.querySelector(".block-editor textarea[data-md-ready]")`)
	fixed := strings.Replace(editorValue(writer), "Ask in the chat first.", "Ask in #handbook first.", 1)
	if !strings.Contains(fixed, "#handbook") {
		t.Fatalf("the hint's editor holds %q", editorValue(writer))
	}
	writer.Fill("textbox", "Markdown of the block", fixed)
	writer.WaitFor(`document.querySelector(".block-editor [role=status]").textContent === "Saved"`)
	writer.Click("button", "Save")
	writer.WaitFor(`!document.querySelector(".block-editor") && document.querySelector("main .body").textContent.indexOf("Ask in #handbook first.") >= 0`)

	// The reviewer approves and merges.
	reviewer.Open(crURL, http.StatusOK)
	if !disabled(reviewer, "Merge") {
		t.Fatal("Merge is enabled with changes requested")
	}
	reviewer.Click("button", "Approve")
	waitNotice(t, reviewer, "cr-approved")
	if disabled(reviewer, "Merge") {
		t.Fatal("Merge is still disabled after the approval")
	}
	reviewer.Shoot("writing-flow-change-request.png")
	reviewer.Click("button", "Merge")
	waitNotice(t, reviewer, "cr-merged")

	// The published site shows the change.
	got := fetchSite(t, h.URL+"/sites/handbook/welcome")
	for _, want := range []string{"Welcome to the team handbook.", "Ask in #handbook first."} {
		if !strings.Contains(got, want) {
			t.Errorf("the published page lacks %q", want)
		}
	}
	if !regexp.MustCompile(`<img[^>]+src=`).MatchString(got) {
		t.Error("the published page lacks the pasted image")
	}
}

// fetchSite reads a page of a published site as an anonymous reader.
func fetchSite(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", url, res.StatusCode)
	}
	return string(b)
}
