package app_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// editorJSON sends a request as the editor's script does and decodes
// its JSON answer.
func (h *harness) editorJSON(t *testing.T, c *http.Client, method, path string, form url.Values) (int, map[string]any) {
	t.Helper()
	hdr := http.Header{"X-Quire-Editor": {"1"}, "Origin": {h.URL}, "Sec-Fetch-Site": {"same-origin"}}
	var body *strings.Reader
	if form != nil {
		hdr.Set("Content-Type", "application/x-www-form-urlencoded")
		body = strings.NewReader(form.Encode())
	} else {
		body = strings.NewReader("")
	}
	status, _, text := h.do(t, c, method, path, body, hdr)
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		out = map[string]any{"text": text}
	}
	return status, out
}

// TestEditorHandlers drives the editor's addresses as its script and a
// browser without it would: "Edit" leads into the writer's draft change
// request; a block opens as Markdown, saves, and a second save from the
// same version meets a 409 with both versions; the page's Markdown
// previews and saves; main content is untouched.
func TestEditorHandlers(t *testing.T) {
	forEachEngine(t, func(t *testing.T, h *harness) {
		f := newSpaceFixture(t, h)
		admin := h.client(t, h.signIn(t, h.Admin))
		sp := "/app/s/" + f.Space.ID

		// A live space's page offers Edit and in-place editing.
		status, _, page := h.get(t, admin, sp+"/guides/install")
		if status != http.StatusOK || !strings.Contains(page, ">Edit</button>") || !strings.Contains(page, `aria-label="Edit block"`) || !strings.Contains(page, "Live editing") {
			t.Fatalf("the page view offers no editing (%d)", status)
		}
		status, loc, _ := h.postForm(t, admin, sp+"/~/edit", url.Values{"path": {"guides/install"}})
		if status != http.StatusSeeOther || !strings.HasPrefix(loc, sp+"/~/changes/") || !strings.HasSuffix(loc, "/guides/install") {
			t.Fatalf("Edit: %d to %q", status, loc)
		}
		n := strings.TrimSuffix(strings.TrimPrefix(loc, sp+"/~/changes/"), "/guides/install")
		if _, err := strconv.Atoi(n); err != nil {
			t.Fatalf("Edit led to %q", loc)
		}
		_, loc2, _ := h.postForm(t, admin, sp+"/~/edit", url.Values{"path": {"guides/install"}})
		if loc2 != loc {
			t.Errorf("a second Edit led to %q, not back to %q", loc2, loc)
		}
		status, _, page = h.get(t, admin, loc)
		if status != http.StatusOK || !strings.Contains(page, `data-block="`) {
			t.Fatalf("the change request's page: %d", status)
		}
		i := strings.Index(page, `data-edit-page="`)
		if i < 0 {
			t.Fatalf("the change request's page is not editable")
		}
		editPage := page[i+len(`data-edit-page="`):]
		editPage = editPage[:strings.Index(editPage, `"`)]
		j := strings.Index(page, `<div class="block" data-block="`)
		key := page[j+len(`<div class="block" data-block="`):]
		key = key[:strings.Index(key, `"`)]

		status, src := h.editorJSON(t, admin, http.MethodGet, editPage+"/blocks/"+key, nil)
		if status != http.StatusOK || strings.TrimSpace(src["markdown"].(string)) != "How to install Quire quickly." {
			t.Fatalf("opening the block: %d %v", status, src)
		}
		base := src["base"].(string)
		status, saved := h.editorJSON(t, admin, http.MethodPost, editPage+"/blocks/"+key, url.Values{"markdown": {"How to install Quire, edited."}, "base": {base}})
		if status != http.StatusOK || !strings.Contains(saved["html"].(string), "How to install Quire, edited.") || saved["keys"].([]any)[0] != key {
			t.Fatalf("saving the block: %d %v", status, saved)
		}
		status, clash := h.editorJSON(t, admin, http.MethodPost, editPage+"/blocks/"+key, url.Values{"markdown": {"Mine."}, "base": {base}})
		if status != http.StatusConflict || strings.TrimSpace(clash["theirs"].(string)) != "How to install Quire, edited." || clash["mine"] != "Mine." {
			t.Fatalf("a stale save: %d %v", status, clash)
		}
		// Without the script, the conflict is a page with both versions.
		status, _, body := h.postForm(t, admin, editPage+"/blocks/"+key, url.Values{"markdown": {"Mine."}, "base": {base}})
		if status != http.StatusConflict || !strings.Contains(body, "Their version") || !strings.Contains(body, "Keep mine") {
			t.Fatalf("a stale save without the script: %d", status)
		}

		// The page's Markdown mode, its preview and its save.
		status, _, body = h.get(t, admin, editPage+"/markdown")
		if status != http.StatusOK || !strings.Contains(body, "How to install Quire, edited.") || !strings.Contains(body, `data-upload="`) {
			t.Fatalf("the Markdown mode: %d", status)
		}
		status, prev := h.editorJSON(t, admin, http.MethodPost, editPage+"/preview", url.Values{"markdown": {"# Big\n\n{% hint style=\"info\" %}\nHinted.\n{% endhint %}\n"}})
		if status != http.StatusOK || !strings.Contains(prev["text"].(string), "Hinted.") || !strings.Contains(prev["text"].(string), `data-block="`) {
			t.Fatalf("the preview: %d %v", status, prev)
		}
		bi := strings.Index(body, `name="base" value="`)
		pbase := body[bi+len(`name="base" value="`):]
		pbase = pbase[:strings.Index(pbase, `"`)]
		status, loc, _ = h.postForm(t, admin, editPage+"/markdown", url.Values{"markdown": {"Rewritten in Markdown mode.\n"}, "base": {pbase}})
		if status != http.StatusSeeOther || !strings.HasSuffix(loc, "/guides/install") {
			t.Fatalf("saving the Markdown: %d %q", status, loc)
		}
		status, _, body = h.postForm(t, admin, editPage+"/markdown", url.Values{"markdown": {"Again.\n"}, "base": {pbase}})
		if status != http.StatusConflict || !strings.Contains(body, "Rewritten in Markdown mode.") {
			t.Fatalf("a stale Markdown save: %d", status)
		}
		if _, _, main := h.get(t, admin, sp+"/guides/install"); strings.Contains(main, "Rewritten") {
			t.Errorf("the change request's edits reached main")
		}
	})
}
