package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"quire/internal/service"
)

// TestDownloadActiveTypes checks that files a browser would render or run
// download as sandboxed attachments, and that other files stay inline.
func TestDownloadActiveTypes(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		reader := ts.token(cRead)
		sp := ts.newSpace(t, "Files")
		cr := str(ts.newChangeRequest(t, sp, "Add files"), "id")
		body := []byte("<script>alert(1)</script>")
		files := []struct {
			name, contentType string
			active            bool
		}{
			{"page.html", "", true},
			{"logo.svg", "", true},
			{"feed.xml", "", true},
			{"app.js", "", true},
			{"page.xhtml", "", true},
			{"notes", "text/html; charset=utf-8", true},
			{"atom", "application/atom+xml", true},
			{"image.png", "image/png", false},
			{"notes.txt", "", false},
		}
		var in []map[string]any
		for _, f := range files {
			m := inlineFile(f.name, body)
			if f.contentType != "" {
				m["contentType"] = f.contentType
			}
			in = append(in, m)
		}
		res := ts.writeContent(t, sp, cr, insertFiles(in...))
		rev := str(res, "changeRequest.revision")
		for i, f := range files {
			id := insertedFileID(t, res, i)
			r := ts.send(t, "GET", "/v1/spaces/"+sp+"/revisions/"+rev+"/files/"+id+"/download", reader, nil)
			if r.Status != 200 || !bytes.Equal(r.Body, body) {
				t.Errorf("%s: %d %s", f.name, r.Status, r.Body)
				continue
			}
			disp, csp := r.Header.Get("Content-Disposition"), r.Header.Get("Content-Security-Policy")
			if f.active && (disp != `attachment; filename=`+quoteName(f.name) || csp != "sandbox") {
				t.Errorf("%s (%s): Content-Disposition %q, Content-Security-Policy %q; want a sandboxed attachment",
					f.name, r.Header.Get("Content-Type"), disp, csp)
			}
			if !f.active && (disp != `inline; filename=`+quoteName(f.name) || csp != "") {
				t.Errorf("%s (%s): Content-Disposition %q, Content-Security-Policy %q; want inline",
					f.name, r.Header.Get("Content-Type"), disp, csp)
			}
			if cc := r.Header.Get("Cache-Control"); cc == "no-store" || cc == "" {
				t.Errorf("%s: Cache-Control %q, want the download's own caching", f.name, cc)
			}
		}
	})
}

// quoteName renders a file name as Content-Disposition writes it.
func quoteName(name string) string {
	if bytes.ContainsAny([]byte(name), " ()<>@,;:\\\"/[]?=") {
		return `"` + name + `"`
	}
	return name
}

// TestAPINotCached checks that JSON answers of the API, errors included,
// are marked not to be cached.
func TestAPINotCached(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		for _, c := range []struct {
			path, token string
			status      int
		}{
			{"/v1/user", ts.token(cRead), 200},
			{"/v1/orgs/" + ts.Org + "/spaces", ts.token(cRead), 200},
			{"/v1/user", "", 401},
			{"/v1/spaces/nosuchspace", ts.token(cRead), 404},
			{"/v1/no/such/endpoint", ts.token(cRead), 404},
			{"/v1/openapi.json", "", 200},
		} {
			r := ts.send(t, "GET", c.path, c.token, nil)
			if r.Status != c.status {
				t.Errorf("%s: status %d, want %d", c.path, r.Status, c.status)
			}
			if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
				t.Errorf("%s (%d): Cache-Control %q, want no-store", c.path, r.Status, cc)
			}
		}
	})
}

// wantSignedURL checks that a downloadURL is a signed link to the file:
// its path ends with the file's id and name, its query holds the expiry
// and the signature.
func wantSignedURL(t *testing.T, link, space, revision, fileID, name string) {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatalf("downloadURL %q: %v", link, err)
	}
	wantPath := "/v1/downloads/" + space + "/" + revision + "/" + fileID + "/" + name
	if u.Scheme+"://"+u.Host != testBaseURL || u.Path != wantPath {
		t.Errorf("downloadURL %s, want %s%s?…", link, testBaseURL, wantPath)
	}
	q := u.Query()
	if q.Get("expires") == "" || q.Get("signature") == "" {
		t.Errorf("downloadURL %s lacks expires or signature", link)
	}
}

// signedGet fetches a signed download URL without a token.
func (ts *testServer) signedGet(t *testing.T, link string) response {
	t.Helper()
	return ts.send(t, "GET", strings.TrimPrefix(link, testBaseURL), "", nil)
}

// TestSignedDownloads checks the signed download links of downloadURL:
// they work without a token until they expire, name the file, and refuse
// any change to what was signed, an expired link and a rotated key.
func TestSignedDownloads(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		reader := ts.token(cRead)
		sp := ts.newSpace(t, "Files")
		cr := str(ts.newChangeRequest(t, sp, "Add files"), "id")
		img := pngBytes(t, 2, 2)
		res := ts.writeContent(t, sp, cr, insertFiles(inlineFile("diagram.png", img), inlineFile("Q3 report (final).txt", []byte("numbers"))))
		rev := str(res, "changeRequest.revision")
		png, txt := insertedFileID(t, res, 0), insertedFileID(t, res, 1)
		fileURL := func(id string) string {
			t.Helper()
			f := ts.must(t, 200, "GET", "/v1/spaces/"+sp+"/revisions/"+rev+"/files/"+id, reader, nil)
			return str(f, "downloadURL")
		}
		link := fileURL(png)
		wantSignedURL(t, link, sp, rev, png, "diagram.png")

		// Without a token, and with any token: the bytes, named.
		for _, token := range []string{"", reader, ts.token(cNonMember), "qt_bad_token"} {
			r := ts.send(t, "GET", strings.TrimPrefix(link, testBaseURL), token, nil)
			if r.Status != 200 || !bytes.Equal(r.Body, img) {
				t.Fatalf("signed download with token %q: %d %s", token, r.Status, r.Body)
			}
			if got := r.Header.Get("Content-Disposition"); got != "inline; filename=diagram.png" {
				t.Errorf("Content-Disposition %q", got)
			}
			if got := r.Header.Get("Content-Type"); got != "image/png" {
				t.Errorf("Content-Type %q", got)
			}
			if cc := r.Header.Get("Cache-Control"); !strings.HasPrefix(cc, "private, max-age=") || cc == "private, max-age=0" {
				t.Errorf("Cache-Control %q", cc)
			}
		}
		// A name that needs escaping survives the path.
		named := fileURL(txt)
		if !strings.Contains(named, "/"+txt+"/Q3%20report%20%28final%29.txt?") {
			t.Errorf("escaped name: %s", named)
		}
		r := ts.signedGet(t, named)
		if r.Status != 200 || string(r.Body) != "numbers" || r.Header.Get("Content-Disposition") != `inline; filename="Q3 report (final).txt"` {
			t.Errorf("download of an escaped name: %d %q %q", r.Status, r.Body, r.Header.Get("Content-Disposition"))
		}

		// Links stay the same for a while, so caches can reuse them.
		if again := fileURL(png); again != link {
			t.Errorf("a second read signed a different link:\n%s\n%s", link, again)
		}

		// Anything signed, changed: 403 with the error body.
		u, _ := url.Parse(link)
		q := u.Query()
		exp, _ := strconv.ParseInt(q.Get("expires"), 10, 64)
		sig := q.Get("signature")
		base := "/v1/downloads/" + sp + "/" + rev + "/"
		for name, p := range map[string]string{
			"other signature":  base + png + "/diagram.png?expires=" + q.Get("expires") + "&signature=" + strings.Repeat("A", len(sig)),
			"not base64":       base + png + "/diagram.png?expires=" + q.Get("expires") + "&signature=%21%21",
			"later expiry":     base + png + "/diagram.png?expires=" + strconv.FormatInt(exp+3600, 10) + "&signature=" + sig,
			"other file":       base + txt + "/diagram.png?expires=" + q.Get("expires") + "&signature=" + sig,
			"other revision":   "/v1/downloads/" + sp + "/" + ts.spaceRevision(t, sp) + "/" + png + "/diagram.png?expires=" + q.Get("expires") + "&signature=" + sig,
			"signature of txt": base + png + "/diagram.png?" + strings.SplitN(named, "?", 2)[1],
		} {
			r := ts.send(t, "GET", p, "", nil)
			if r.Status != 403 {
				t.Errorf("%s: status %d, want 403: %s", name, r.Status, r.Body)
				continue
			}
			checkErrorBody(t, r)
		}
		// The name is the file's, or nothing is found.
		r = ts.send(t, "GET", base+png+"/other.png?"+u.RawQuery, "", nil)
		if r.Status != 404 {
			t.Errorf("other name: %d %s", r.Status, r.Body)
		}
		// Missing parts of the query name the field.
		wantContains(t, ts.mustError(t, 400, "GET", base+png+"/diagram.png?signature="+sig, "", nil), "expires")

		// Expired: the link works until its expiry, not after.
		ts.Clock.Advance(time.Until(time.Unix(exp, 0)) - time.Minute)
		if r := ts.signedGet(t, link); r.Status != 200 {
			t.Errorf("a minute before expiry: %d %s", r.Status, r.Body)
		}
		ts.Clock.Advance(2 * time.Minute)
		if r := ts.signedGet(t, link); r.Status != 403 {
			t.Errorf("after expiry: %d %s", r.Status, r.Body)
		} else {
			checkErrorBody(t, r)
		}
		fresh := fileURL(png)
		if fresh == link {
			t.Fatal("a read after expiry gave the expired link")
		}
		if r := ts.signedGet(t, fresh); r.Status != 200 {
			t.Errorf("fresh link: %d %s", r.Status, r.Body)
		}

		// Rotating the key revokes every link, on this replica at once and
		// on another replica sharing the database within its cache time.
		other := service.New(ts.Store, service.WithClock(ts.Clock.Now), service.WithBlobs(ts.Blobs))
		otherSrv := httptest.NewServer(New(other, Config{BaseURL: testBaseURL}))
		t.Cleanup(otherSrv.Close)
		otherGet := func(link string) int {
			resp, err := http.Get(otherSrv.URL + strings.TrimPrefix(link, testBaseURL))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp.StatusCode
		}
		if code := otherGet(fresh); code != 200 {
			t.Fatalf("another replica refused a link: %d", code)
		}
		if err := ts.Svc.RotateDownloadKey(context.Background()); err != nil {
			t.Fatal(err)
		}
		if r := ts.signedGet(t, fresh); r.Status != 403 {
			t.Errorf("after rotation: %d %s", r.Status, r.Body)
		}
		ts.Clock.Advance(time.Minute)
		if code := otherGet(fresh); code != 403 {
			t.Errorf("another replica a minute after rotation: %d", code)
		}
		rotated := fileURL(png)
		if r := ts.signedGet(t, rotated); r.Status != 200 {
			t.Errorf("link after rotation: %d %s", r.Status, r.Body)
		}
		if code := otherGet(rotated); code != 200 {
			t.Errorf("another replica, link after rotation: %d", code)
		}

		// A space in the trash serves no file.
		ts.must(t, 205, "DELETE", "/v1/spaces/"+sp, ts.token(cAdmin), nil)
		if r := ts.signedGet(t, rotated); r.Status != 404 {
			t.Errorf("deleted space: %d %s", r.Status, r.Body)
		}
	})
}

// TestMarkdownFileLinks checks that page Markdown writes images and files
// as signed download links that resolve, and that writing that Markdown
// back (or a bare file id) keeps the file references.
func TestMarkdownFileLinks(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		sp := ts.newSpace(t, "Docs")
		cr := str(ts.newChangeRequest(t, sp, "Pictures"), "id")
		img := pngBytes(t, 4, 3)
		res := ts.writeContent(t, sp, cr, insertFiles(inlineFile("chart.png", img), inlineFile("data.csv", []byte("a,b\n"))))
		png, csv := insertedFileID(t, res, 0), insertedFileID(t, res, 1)
		other := ts.newSpace(t, "Elsewhere")
		foreign := testBaseURL + "/v1/downloads/" + other + "/rev/file/x.png?expires=1&signature=x"
		src := "Inline ![Chart](" + png + ") here.\n\n" +
			"<figure><img src=\"" + png + "\" alt=\"Big chart\"><figcaption><p>The chart</p></figcaption></figure>\n\n" +
			"{% file src=\"" + csv + "\" %}\nThe data\n{% endfile %}\n\n" +
			"![Missing](nosuchfile)\n\n" +
			"![Foreign](" + foreign + ")\n"
		res = ts.writeContent(t, sp, cr, insertPage("Page", src))
		page := changedPage(t, res, 0)
		base := crPath(sp, cr, "")
		exported := ts.pageMarkdown(t, base, page)

		rev := ts.crRevision(t, sp, cr)
		linkRE := regexp.MustCompile(regexp.QuoteMeta(testBaseURL) + `/v1/downloads/[^)"\s]+`)
		links := linkRE.FindAllString(exported, -1)
		var own []string
		for _, l := range links {
			if !strings.HasPrefix(l, testBaseURL+"/v1/downloads/"+other+"/") {
				own = append(own, html.UnescapeString(l))
			}
		}
		if len(own) != 3 {
			t.Fatalf("want 3 download links (inline image, figure, file) in:\n%s", exported)
		}
		for i, name := range []string{"chart.png", "chart.png", "data.csv"} {
			id := map[string]string{"chart.png": png, "data.csv": csv}[name]
			wantSignedURL(t, own[i], sp, rev, id, name)
			if r := ts.signedGet(t, own[i]); r.Status != 200 || r.Header.Get("Content-Disposition") == "" {
				t.Errorf("link %s: %d %s", own[i], r.Status, r.Body)
			}
		}
		if strings.Contains(exported, "]("+png+")") || strings.Contains(exported, `src="`+png+`"`) {
			t.Errorf("export still writes a bare file id:\n%s", exported)
		}
		if !strings.Contains(exported, "](nosuchfile)") {
			t.Errorf("a file the revision lacks should keep its id:\n%s", exported)
		}

		// Importing the export keeps every reference as it was.
		before := ts.must(t, 200, "GET", pageRoute(base, page)+"?format=document", ts.token(cAdmin), nil)["document"]
		ts.writeContent(t, sp, cr, updatePage(page, "document", md(exported)))
		after := ts.must(t, 200, "GET", pageRoute(base, page)+"?format=document", ts.token(cAdmin), nil)["document"]
		refs := func(doc any) []string {
			var b strings.Builder
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(doc); err != nil {
				t.Fatal(err)
			}
			return regexp.MustCompile(`"ref(Dark)?":\{[^}]*\}`).FindAllString(b.String(), -1)
		}
		if got, want := refs(after), refs(before); !slices.Equal(got, want) {
			t.Errorf("references after re-import:\n got  %v\n want %v", got, want)
		}
		for _, want := range []string{`{"file":"` + png + `","kind":"file"}`, `{"file":"` + csv + `","kind":"file"}`, `{"kind":"url","url":"` + foreign + `"}`} {
			if !strings.Contains(strings.Join(refs(after), " "), want) {
				t.Errorf("no reference %s in %v", want, refs(after))
			}
		}
	})
}
