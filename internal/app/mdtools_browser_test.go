package app_test

import (
	"context"
	"encoding/base64"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"quire/internal/testutil"
)

// mdtoolsTextarea adds, after the page loaded (as the editor does), a
// Markdown textarea writing to the change request: the tools must find
// it without any setup of its own.
func mdtoolsTextarea(b *testutil.BrowserPage, spaceID string, number int) {
	base := "/app/s/" + spaceID + "/~/edit/" + strconv.Itoa(number)
	b.JS(`(function(){var ta=document.createElement("textarea");ta.setAttribute("data-markdown","");` +
		`ta.setAttribute("aria-label","Page Markdown");ta.rows=10;ta.style.width="100%";` +
		`ta.setAttribute("data-upload","` + base + `/files");ta.setAttribute("data-convert","` + base + `/convert");` +
		`document.querySelector("main").prepend(ta);return ""})()`)
	b.WaitFor(`document.querySelector("textarea[data-markdown][data-md-ready]")`)
}

// focusEnd puts the cursor at the end of the textarea, focused.
func focusEnd(b *testutil.BrowserPage) {
	b.JS(`(function(){var t=document.querySelector("textarea[data-markdown]");t.focus();t.setSelectionRange(t.value.length,t.value.length);return ""})()`)
}

func textareaValue(b *testutil.BrowserPage) string {
	return b.JS(`document.querySelector("textarea[data-markdown]").value`)
}

// TestMarkdownToolsBrowser drives the Markdown tools as a writer would,
// through the accessibility tree: "/" opens the insert menu, typing
// filters it and Enter inserts a hint; the toolbar's button opens it by
// keyboard; Ctrl+B makes the selection bold; a pasted image is uploaded
// to the change request and inserted as an image of the stored file;
// pasted HTML is inserted as Markdown. Screenshots show the open menu.
func TestMarkdownToolsBrowser(t *testing.T) {
	h := newHarness(t, "sqlite")
	f := newSpaceFixture(t, h)
	b := newBrowser(t)
	h.signInBrowser(t, b, h.Admin)
	// A page of the app with no Markdown field of its own (a page view
	// has the comment composer), so the one added is the only one.
	pageURL := h.URL + "/app/s/" + f.Space.ID + "/~/revisions"
	b.Open(pageURL, 200)
	mdtoolsTextarea(b, f.Space.ID, f.Open)
	for _, name := range []string{"Bold", "Italic", "Strikethrough", "Inline code", "Link", "Insert block"} {
		if !b.Has("button", name) {
			t.Fatalf("no %q button on the toolbar", name)
		}
	}
	if got := b.JS(`document.querySelector("[aria-label=Bold]").getAttribute("aria-keyshortcuts")`); got != "Control+B Meta+B" {
		t.Fatalf("Bold's shortcut: %q", got)
	}

	// "/" on an empty line opens the menu; typing filters; Enter inserts.
	focusEnd(b)
	b.Do(chromedp.KeyEvent("/"))
	b.WaitFor(`!document.getElementById("md-insert-menu").hidden`)
	if !b.Has("listbox", "Insert block") || !b.Has("option", "Tabs") {
		t.Fatal("the insert menu does not list the blocks")
	}
	if got := b.JS(`document.querySelector("textarea[data-markdown]").getAttribute("aria-activedescendant")`); got != "md-insert-option-0" {
		t.Fatalf("aria-activedescendant %q", got)
	}
	b.Do(chromedp.KeyEvent("warn"))
	b.WaitFor(`document.querySelectorAll("#md-insert-menu [role=option]").length === 1`)
	if !b.Has("option", "Warning hint") || b.Has("option", "Tabs") {
		t.Fatal("typing does not filter the menu")
	}
	b.Do(chromedp.KeyEvent(kb.Enter))
	b.WaitFor(`document.getElementById("md-insert-menu").hidden`)
	if got := textareaValue(b); got != "{% hint style=\"warning\" %}\nWarning\n{% endhint %}" {
		t.Fatalf("inserted %q", got)
	}

	// The toolbar's button opens the menu by keyboard; arrows move,
	// Enter inserts a block of its own after the text.
	b.JS(`(function(){document.querySelector("[data-md-insert]").focus();return ""})()`)
	b.Do(chromedp.KeyEvent(kb.Enter))
	b.WaitFor(`!document.getElementById("md-insert-menu").hidden`)
	if got := b.JS(`document.querySelector("[data-md-insert]").getAttribute("aria-expanded")`); got != "true" {
		t.Fatalf("the button's aria-expanded is %q", got)
	}
	b.Do(chromedp.KeyEvent("divider"), chromedp.KeyEvent(kb.Enter))
	b.WaitFor(`document.querySelector("textarea[data-markdown]").value.endsWith("\n\n***")`)
	// Escape closes, leaving the text as typed.
	b.JS(`(function(){var t=document.querySelector("textarea[data-markdown]");t.value="";t.focus();return ""})()`)
	b.Do(chromedp.KeyEvent("/ta"))
	b.WaitFor(`!document.getElementById("md-insert-menu").hidden && document.querySelectorAll("#md-insert-menu [role=option]").length > 0`)
	b.Do(chromedp.KeyEvent(kb.Escape))
	b.WaitFor(`document.getElementById("md-insert-menu").hidden`)
	if got := textareaValue(b); got != "/ta" {
		t.Fatalf("escape left %q", got)
	}

	// Ctrl+B wraps the selection; again, it unwraps it.
	b.JS(`(function(){var t=document.querySelector("textarea[data-markdown]");t.value="hello world";t.focus();t.setSelectionRange(6,11);return ""})()`)
	b.Do(chromedp.KeyEvent("b", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	if got := textareaValue(b); got != "hello **world**" {
		t.Fatalf("Ctrl+B gave %q", got)
	}
	b.Do(chromedp.KeyEvent("b", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	if got := textareaValue(b); got != "hello world" {
		t.Fatalf("Ctrl+B again gave %q", got)
	}

	// A pasted image is uploaded and inserted as an image of the file.
	focusEnd(b)
	b.JS(`(function(){var bin=atob("` + base64.StdEncoding.EncodeToString(pngBytes(t)) + `");var a=new Uint8Array(bin.length);` +
		`for(var i=0;i<bin.length;i++)a[i]=bin.charCodeAt(i);var dt=new DataTransfer();dt.items.add(new File([a],"pasted.png",{type:"image/png"}));` +
		`document.querySelector("textarea[data-markdown]").dispatchEvent(new ClipboardEvent("paste",{clipboardData:dt,bubbles:true,cancelable:true}));return ""})()`)
	b.WaitFor(`/!\[pasted\]\(\w+\)/.test(document.querySelector("textarea[data-markdown]").value)`)
	id := regexp.MustCompile(`!\[pasted\]\((\w+)\)`).FindStringSubmatch(textareaValue(b))[1]
	cr, err := h.Svc.ChangeRequest(context.Background(), f.Space.ID, strconv.Itoa(f.Open))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Svc.SpaceFile(context.Background(), f.Space.ID, cr.Revision, id); err != nil {
		t.Fatalf("the pasted image is not stored in the change request: %v", err)
	}
	if strings.Contains(textareaValue(b), "Uploading") {
		t.Fatal("the placeholder stayed")
	}

	// Pasted HTML becomes Markdown.
	focusEnd(b)
	b.JS(`(function(){var dt=new DataTransfer();dt.setData("text/html","<p>Read <b>this</b> <a href=\"https://quire.example/\">page</a></p>");` +
		`dt.setData("text/plain","Read this page");document.querySelector("textarea[data-markdown]").dispatchEvent(new ClipboardEvent("paste",{clipboardData:dt,bubbles:true,cancelable:true}));return ""})()`)
	b.WaitFor(`document.querySelector("textarea[data-markdown]").value.indexOf("Read **this** [page](https://quire.example/)") >= 0`)

	// The open menu at desktop and phone widths, light and dark.
	for _, view := range []struct {
		name          string
		width, height int64
		mobile        bool
	}{{"desktop", 1280, 900, false}, {"phone", 390, 844, true}} {
		for _, theme := range []string{"light", "dark"} {
			b.Viewport(view.width, view.height, view.mobile)
			b.Theme(theme)
			mdtoolsTextarea(b, f.Space.ID, f.Open)
			b.JS(`(function(){var t=document.querySelector("textarea[data-markdown]");t.value="Some text.\n\n";return ""})()`)
			focusEnd(b)
			b.Do(chromedp.KeyEvent("/"))
			b.WaitFor(`!document.getElementById("md-insert-menu").hidden`)
			b.Do(chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown))
			b.Shoot("mdtools-menu-" + view.name + "-" + theme + ".png")
		}
	}
}
