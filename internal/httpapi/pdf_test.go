package httpapi

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"quire/internal/pdf"

	"quire/internal/testutil"
)

// pdfPNG is a small PNG for the pages' images.
func pdfPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 40, 20))
	for x := range 40 {
		img.Set(x, 10, color.RGBA{0xff, 0, 0, 0xff})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pdfText returns the text of a PDF, extracted with pdftotext; the test
// is skipped when poppler-utils is not installed (.ci/run installs it).
func pdfText(t *testing.T, data []byte) string {
	t.Helper()
	if !bytes.HasPrefix(data, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %.40q", data)
	}
	tool, err := exec.LookPath("pdftotext")
	if err != nil {
		const why = "pdftotext is not installed (Debian package poppler-utils); .ci/run installs it"
		testutil.Missing(t, why)
	}
	p := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(tool, "-enc", "UTF-8", p, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

// getPDF fetches a PDF link without a token and checks it is a PDF.
func (ts *testServer) getPDF(t *testing.T, link string) []byte {
	t.Helper()
	r := ts.signedGet(t, link)
	if r.Status != 200 {
		t.Fatalf("GET %s: %d %s", link, r.Status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/pdf" {
		t.Errorf("Content-Type %q, want application/pdf", ct)
	}
	if cc := r.Header.Get("Cache-Control"); !strings.HasPrefix(cc, "private, max-age=") {
		t.Errorf("Cache-Control %q, want private caching until expiry", cc)
	}
	return r.Body
}

// pdfLink asks for a PDF link as the caller with token.
func (ts *testServer) pdfLink(t *testing.T, token, path string) string {
	t.Helper()
	link := str(ts.must(t, 200, "GET", path, token, nil), "url")
	if !strings.HasPrefix(link, testBaseURL+"/v1/pdfs/") {
		t.Fatalf("PDF url %q is not a PDF link of this server", link)
	}
	return link
}

// wantText checks which words a PDF's text has.
func wantText(t *testing.T, what, text string, has, lacks []string) {
	t.Helper()
	for _, w := range has {
		if !strings.Contains(text, w) {
			t.Errorf("%s: %q missing from the PDF text: %s", what, w, text)
		}
	}
	for _, w := range lacks {
		if strings.Contains(text, w) {
			t.Errorf("%s: %q in the PDF text, want it left out: %s", what, w, text)
		}
	}
}

// TestPDFExport checks the PDFs of a space and of a change request: the
// pages shown, page selection with page and only, and bad selections.
func TestPDFExport(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		sp := ts.newSpace(t, "Handbook")
		cr := str(ts.newChangeRequest(t, sp, "Write pages"), "id")
		files := ts.writeContent(t, sp, cr, insertFiles(inlineFile("line.png", pdfPNG(t))))
		img := insertedFileID(t, files, 0)
		res := ts.writeContent(t, sp, cr,
			insertPage("Alpha page", "Alpha words with **bold** and `code`.\n\n![a line]("+img+")\n\n| Col | Val |\n| --- | --- |\n| cellone | celltwo |", "ref", "alpha"),
			insertPage("Beta page", "Beta words 中文字.", "ref", "beta", "into", "alpha"),
			insertPage("Gamma page", "Gamma words.\n\n```\nfmt.Println(1)\n```", "ref", "gamma"),
		)
		alpha, beta := changedPage(t, res, 0), changedPage(t, res, 1)
		ts.mergeCR(t, sp, cr)
		reader := ts.token(cRead)

		data := ts.getPDF(t, ts.pdfLink(t, reader, "/v1/spaces/"+sp+"/pdf"))
		if !bytes.Contains(data, []byte("/Subtype /Image")) {
			t.Error("the page's image file is not in the PDF")
		}
		all := pdfText(t, data)
		wantText(t, "space", all, []string{"Handbook", "Contents", "Alpha page", "Alpha words with bold and code.", "cellone",
			"celltwo", "Beta page", "Beta words", "Gamma page", "Gamma words.", "fmt.Println(1)"}, []string{"[a line]"})
		if strings.Index(all, "Alpha words") > strings.Index(all, "Beta words") || strings.Index(all, "Beta words") > strings.Index(all, "Gamma words") {
			t.Errorf("pages not in tree order: %s", all)
		}

		sub := pdfText(t, ts.getPDF(t, ts.pdfLink(t, reader, "/v1/spaces/"+sp+"/pdf?page="+alpha)))
		wantText(t, "page with its children", sub, []string{"Alpha words", "Beta words"}, []string{"Gamma"})
		only := pdfText(t, ts.getPDF(t, ts.pdfLink(t, reader, "/v1/spaces/"+sp+"/pdf?only=true&page="+alpha)))
		wantText(t, "page only", only, []string{"Alpha words"}, []string{"Beta", "Gamma"})
		leaf := pdfText(t, ts.getPDF(t, ts.pdfLink(t, reader, "/v1/spaces/"+sp+"/pdf?page="+beta)))
		wantText(t, "leaf page", leaf, []string{"Beta words"}, []string{"Alpha words", "Gamma"})

		// The change request's PDF shows its content, not the space's.
		draft := str(ts.newChangeRequest(t, sp, "Rewrite gamma"), "id")
		ts.writeContent(t, sp, draft, insertPage("Delta draft", "Delta words only in the draft."))
		crText := pdfText(t, ts.getPDF(t, ts.pdfLink(t, reader, crPath(sp, draft, "/pdf"))))
		wantText(t, "change request", crText, []string{"Change request #2: Rewrite gamma", "Delta words only in the draft.", "Alpha words"}, nil)
		again := pdfText(t, ts.getPDF(t, ts.pdfLink(t, reader, "/v1/spaces/"+sp+"/pdf")))
		wantText(t, "space beside a change request", again, []string{"Alpha words"}, []string{"Delta"})
		crOnly := pdfText(t, ts.getPDF(t, ts.pdfLink(t, reader, crPath(sp, draft, "/pdf?only=true&page="+alpha))))
		wantText(t, "change request page", crOnly, []string{"Alpha words"}, []string{"Delta", "Beta"})

		// Bad selections.
		for _, c := range []struct {
			path, field string
			status      int
		}{
			{"/v1/spaces/" + sp + "/pdf?only=true", "page", 400},
			{"/v1/spaces/" + sp + "/pdf?only=maybe", "only", 400},
			{"/v1/spaces/" + sp + "/pdf?page=" + strings.Repeat("x", 200), "page", 400},
			{"/v1/spaces/" + sp + "/pdf?page=nosuchpage", "page", 404},
			{crPath(sp, draft, "/pdf?only=1"), "page", 400},
			{crPath(sp, "999", "/pdf"), "", 404},
		} {
			msg := ts.mustError(t, c.status, "GET", c.path, reader, nil)
			if c.field != "" && !strings.Contains(msg, c.field) {
				t.Errorf("%s: message %q does not name %s", c.path, msg, c.field)
			}
		}
	})
}

// TestPDFLinks checks the PDF links: they work without a token for an
// hour, show the revision they were made at, and refuse any change to
// what they sign.
func TestPDFLinks(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		sp := ts.newSpace(t, "Links")
		cr := str(ts.newChangeRequest(t, sp, "First"), "id")
		res := ts.writeContent(t, sp, cr, insertPage("One", "First words."), insertPage("Two", "Second words."))
		one := changedPage(t, res, 0)
		ts.mergeCR(t, sp, cr)
		link := ts.pdfLink(t, ts.token(cRead), "/v1/spaces/"+sp+"/pdf?page="+one)
		u, err := url.Parse(link)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(u.Path, "/One.pdf") {
			t.Errorf("link path %q does not end with the page's file name", u.Path)
		}

		// Later edits do not change what the link shows.
		next := str(ts.newChangeRequest(t, sp, "Second"), "id")
		ts.writeContent(t, sp, next, updatePage(one, "document", md("Rewritten words.")))
		ts.mergeCR(t, sp, next)
		wantText(t, "pinned link", pdfText(t, ts.getPDF(t, link)), []string{"First words."}, []string{"Rewritten", "Second words."})

		// Anything signed, changed: 403.
		q := u.Query()
		tampered := map[string]string{}
		for _, k := range []string{"page", "expires", "signature"} {
			v := url.Values{}
			for kk, vv := range q {
				v[kk] = vv
			}
			switch k {
			case "expires":
				v.Set(k, "99999999999")
			case "signature":
				sig := []byte(v.Get(k))
				sig[0] ^= 1
				v.Set(k, string(sig))
			default:
				v.Set(k, "other")
			}
			tampered[k] = u.Path + "?" + v.Encode()
		}
		withOnly := u.Query()
		withOnly.Set("only", "true")
		tampered["only"] = u.Path + "?" + withOnly.Encode()
		noPage := u.Query()
		noPage.Del("page")
		tampered["no page"] = u.Path + "?" + noPage.Encode()
		asCR := u.Query()
		asCR.Set("changeRequest", next)
		tampered["changeRequest"] = u.Path + "?" + asCR.Encode()
		tampered["revision"] = "/v1/pdfs/" + sp + "/" + ts.spaceRevision(t, sp) + "/One.pdf?" + u.RawQuery
		for what, p := range tampered {
			r := ts.send(t, "GET", p, "", nil)
			if r.Status != 403 {
				t.Errorf("%s changed: %d %s, want 403", what, r.Status, r.Body)
				continue
			}
			checkErrorBody(t, r)
		}
		// The file name is not signed.
		renamed := strings.Replace(link, "/One.pdf", "/Other.pdf", 1)
		if r := ts.signedGet(t, renamed); r.Status != 200 {
			t.Errorf("renamed link: %d %s", r.Status, r.Body)
		}

		// An hour, then 403.
		ts.Clock.Advance(59 * time.Minute)
		if r := ts.signedGet(t, link); r.Status != 200 {
			t.Fatalf("link after 59 minutes: %d %s", r.Status, r.Body)
		}
		ts.Clock.Advance(2 * time.Minute)
		r := ts.signedGet(t, link)
		if r.Status != 403 {
			t.Fatalf("link after 61 minutes: %d %s, want 403", r.Status, r.Body)
		}
		checkErrorBody(t, r)

		// A deleted space's links stop working.
		fresh := ts.pdfLink(t, ts.token(cAdmin), "/v1/spaces/"+sp+"/pdf")
		ts.must(t, 205, "DELETE", "/v1/spaces/"+sp, ts.token(cAdmin), nil)
		if r := ts.signedGet(t, fresh); r.Status != 404 {
			t.Errorf("link of a deleted space: %d %s, want 404", r.Status, r.Body)
		}
	})
}

// TestPDFFiftyPages sets a space of fifty pages, each with every common
// block kind and CJK text, and finds each page's text in the PDF.
func TestPDFFiftyPages(t *testing.T) {
	t.Parallel()
	fonts, err := pdf.LoadFonts("")
	if err != nil {
		t.Fatal(err)
	}
	if !fonts.HasCJK() {
		const why = "no CJK fonts installed (Debian packages fonts-droid-fallback, fonts-nanum); .ci/run installs them"
		testutil.Missing(t, why)
	}
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		sp := ts.newSpace(t, "Fifty")
		cr := str(ts.newChangeRequest(t, sp, "Fifty pages"), "id")
		img := insertedFileID(t, ts.writeContent(t, sp, cr, insertFiles(inlineFile("dot.png", pdfPNG(t)))), 0)
		var changes []map[string]any
		for i := range 50 {
			n := strconv.Itoa(i)
			changes = append(changes, insertPage("Page "+n, "# Head "+n+"\n\nText **bold"+n+"** *ital"+n+"* `code"+n+"` [link"+n+"](https://example.com/"+n+").\n\n"+
				"- item"+n+"\n\n1. first"+n+"\n\n```\nline"+n+"()\n```\n\n{% hint style=\"danger\" %}\nhint"+n+"\n{% endhint %}\n\n"+
				"| A | B |\n| - | - |\n| a"+n+" | b"+n+" |\n\n![pic]("+img+")\n\n日本語"+n+" 中文"+n+" 한국어"+n+"\n"))
		}
		ts.writeContent(t, sp, cr, changes...)
		ts.mergeCR(t, sp, cr)
		data := ts.getPDF(t, ts.pdfLink(t, ts.token(cRead), "/v1/spaces/"+sp+"/pdf"))
		text := pdfText(t, data)
		for i := range 50 {
			n := strconv.Itoa(i)
			for _, w := range []string{"Page " + n, "Head " + n, "bold" + n, "ital" + n, "code" + n, "link" + n, "item" + n, "first" + n,
				"line" + n + "()", "hint" + n, "a" + n, "b" + n, "日本語" + n, "中文" + n, "한국어" + n} {
				if !strings.Contains(text, w) {
					t.Errorf("%q missing from the PDF", w)
				}
			}
		}
		if got := bytes.Count(data, []byte("/Subtype /Image")); got < 1 {
			t.Errorf("no image in the PDF")
		}
	})
}

// Images of raw HTML, named by their repository path as imported pages
// name them, are drawn in the PDF.
func TestPDFDrawsRawHTMLImages(t *testing.T) {
	t.Parallel()
	ts := newConfiguredServer(t, engineSQLite, nil)
	sp := ts.newSpace(t, "Handbook")
	cr := str(ts.newChangeRequest(t, sp, "Write pages"), "id")
	ts.writeContent(t, sp, cr, insertFiles(inlineFile("line.png", pdfPNG(t))))
	ts.writeContent(t, sp, cr, insertPage("Alpha page", "Before.\n\n<picture><img src=\".gitbook/assets/line.png\" alt=\"a line\"></picture>\n\nAfter."))
	ts.mergeCR(t, sp, cr)
	data := ts.getPDF(t, ts.pdfLink(t, ts.token(cRead), "/v1/spaces/"+sp+"/pdf"))
	if !bytes.Contains(data, []byte("/Subtype /Image")) {
		t.Error("the raw HTML image is not in the PDF")
	}
	wantText(t, "raw HTML image", pdfText(t, data), []string{"Before.", "After."}, []string{"[a line]"})
}
