package app_test

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// TestSpacePages opens every address of a space as a reader member (200,
// with what each shows), then as a person outside the organization and
// with unknown ids (the same 404 page).
func TestSpacePages(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		f := newSpaceFixture(t, h)
		reader := h.newUser(t, "rita@acme.test", "Rita Reader", quire.RoleRead)
		c := h.client(t, h.signIn(t, reader))
		sp := "/app/s/" + f.Space.ID
		cr := sp + "/~/changes/" + strconv.Itoa(f.Open)
		old := sp + "/~/revisions/" + f.OldRevision
		for _, tc := range []struct {
			path string
			want []string
		}{
			{sp, []string{"<h1>Welcome</h1>", `href="` + sp + `/guides/install"`, ">install guide</a>", "Back to </span>Acme Docs",
				`<h3 class="tree-group-title">Guides</h3>`, `aria-current="page">Welcome`, `action="` + sp + `/~/search"`, `data-search-url="` + sp + `/~/search.json"`}},
			{sp + "/welcome", []string{"<h1>Welcome</h1>", `aria-current="page">Welcome`}},
			{sp + "/guides/install", []string{"<h1>Install</h1>", `aria-current="page">Install`, "On this page", `href="#requirements"`,
				`aria-label="Breadcrumbs"`, "<li>Guides</li>", `aria-controls="tree-`}},
			{sp + "/guides/install/linux", []string{"<h1>Linux</h1>", `href="` + sp + `/guides/install">Install</a>`}},
			{sp + "/secret", []string{"<h1>Secret</h1>"}},
			{sp + "/~/revisions", []string{"<h1>Revisions</h1>", `href="` + old + `"`, "Link the install guide", "Ada Admin", "Current"}},
			{old, []string{"<h1>Welcome</h1>", "Welcome to the handbook.", "earlier revision", `href="` + old + `/guides/install"`}},
			{old + "/guides/install", []string{"<h1>Install</h1>", "zebrafish"}},
			{cr, []string{"<h1>Faster install</h1>", "Ada Admin", "Draft", "1 changed page", `href="` + cr + `/guides/install">Install</a>`}},
			{cr + "/guides/install", []string{"<h1>Install</h1>", "quickly", "change request"}},
		} {
			status, _, body := h.get(t, c, tc.path)
			if status != http.StatusOK {
				t.Errorf("GET %s: %d, want 200", tc.path, status)
				continue
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("GET %s: no %q", tc.path, w)
				}
			}
		}

		// The hidden page is in the tree, marked for the eye and for
		// screen readers.
		_, _, body := h.get(t, c, sp)
		if !regexp.MustCompile(`>Secret<span class="visually-hidden">,</span> <span class="page-tag">Hidden</span></a>`).MatchString(body) {
			t.Errorf("the hidden page is not marked Hidden in the tree")
		}
		if strings.Contains(body, "Installing on Linux") {
			t.Errorf("the space's home shows another page than its first")
		}

		// Outside the organization, and unknown ids: the same 404.
		outsider := h.client(t, h.signIn(t, h.newUser(t, "olga@other.test", "Olga Outside", "")))
		for _, p := range []string{sp, sp + "/welcome", sp + "/guides/install", sp + "/~/revisions", old, old + "/guides/install",
			cr, cr + "/guides/install", sp + "/~/search?q=install", sp + "/~/search.json?q=install", "/app/o/" + h.Org + "/search?q=install"} {
			if status, _, _ := h.get(t, outsider, p); status != http.StatusNotFound {
				t.Errorf("outsider GET %s: %d, want 404", p, status)
			}
		}
		for _, p := range []string{"/app/s/nosuchspace", "/app/s/nosuchspace/welcome", sp + "/nosuchpage", sp + "/guides/nosuch",
			sp + "/~/revisions/nosuchrevision", old + "/nosuchpage", sp + "/~/changes/999",
			sp + "/~/changes/abc", sp + "/~/changes/999/welcome", sp + "/~/files/" + f.OldRevision + "/nosuchfile"} {
			if status, _, _ := h.get(t, c, p); status != http.StatusNotFound {
				t.Errorf("GET %s: %d, want 404", p, status)
			}
		}
		// Not signed in: to the sign-in page.
		if status, loc, _ := h.get(t, h.client(t, nil), sp+"/welcome"); status != http.StatusSeeOther || !strings.HasPrefix(loc, "/app/sign-in") {
			t.Errorf("signed out: %d %q, want 303 to sign in", status, loc)
		}
	})
}

// TestSpaceEmpty shows the empty state of a space without pages.
func TestSpaceEmpty(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		sv, err := h.Svc.CreateSpace(context.Background(), h.Admin, h.Org, service.SpaceInput{Title: "Blank"})
		if err != nil {
			t.Fatal(err)
		}
		status, _, body := h.get(t, h.client(t, h.signIn(t, h.Admin)), "/app/s/"+sv.Space.ID)
		if status != http.StatusOK || !strings.Contains(body, "There is no page here yet.") {
			t.Errorf("empty space: %d, want 200 with the empty state", status)
		}
	})
}

// TestSearchPages searches an organization and a space, as a page and as
// JSON: a member finds the page, marked; a space the member may not see
// stays out of their results.
func TestSearchPages(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		f := newSpaceFixture(t, h)
		hidden, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Board"})
		if err != nil {
			t.Fatal(err)
		}
		top := ""
		h.writeAndMerge(t, hidden.Space.ID, "Minutes", pageChange("m", "Zebrafish minutes", "minutes", "The board on zebrafish.\n", &top))
		h.awaitIndexed(t, f.Space.ID)
		h.awaitIndexed(t, hidden.Space.ID)

		// A guest of the organization, reading the handbook only.
		guest, _, err := h.Svc.CreateUser(ctx, service.CreateUserInput{Email: "gus@acme.test", Name: "Gus Guest", OrgID: h.Org})
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Svc.InviteToSpace(ctx, f.Space.ID, quire.RoleRead, []string{guest.ID}, nil); err != nil {
			t.Fatal(err)
		}
		reader := h.client(t, h.signIn(t, guest))
		admin := h.client(t, h.signIn(t, h.Admin))
		org := "/app/o/" + h.Org
		titles := func(c *http.Client, path string) []string {
			t.Helper()
			status, _, body := h.get(t, c, path)
			if status != http.StatusOK {
				t.Fatalf("GET %s: %d", path, status)
			}
			var hits []struct {
				URL, Title, Section string
				Snippet             []struct {
					Text string
					Mark bool
				}
			}
			if err := json.Unmarshal([]byte(body), &hits); err != nil {
				t.Fatalf("GET %s: %v in %s", path, err, body)
			}
			var out []string
			for _, x := range hits {
				out = append(out, x.Title+" "+x.URL)
			}
			return out
		}
		sp := "/app/s/" + f.Space.ID
		want := "Install " + sp + "/guides/install#requirements"
		if got := titles(reader, org+"/search.json?q=zebrafish"); strings.Join(got, "|") != want {
			t.Errorf("reader's organization search: %q, want %q", got, want)
		}
		if got := titles(admin, org+"/search.json?q=zebrafish"); len(got) != 2 {
			t.Errorf("admin's organization search: %q, want both spaces", got)
		}
		if got := titles(reader, sp+"/~/search.json?q=zebrafish"); strings.Join(got, "|") != want {
			t.Errorf("space search: %q, want %q", got, want)
		}
		if got := titles(reader, sp+"/~/search.json?q="); len(got) != 0 {
			t.Errorf("empty search: %q, want nothing", got)
		}
		if status, _, _ := h.get(t, reader, "/app/s/"+hidden.Space.ID+"/~/search.json?q=zebrafish"); status != http.StatusNotFound {
			t.Errorf("reader searching the space they may not see: %d, want 404", status)
		}
		// The results page works without script: title, space, section,
		// snippet with marks.
		status, _, body := h.get(t, reader, org+"/search?q=zebrafish")
		for _, w := range []string{"1 space with results", `href="` + sp + `/guides/install#requirements"`, "Handbook › Requirements", "<mark>zebrafish</mark>", `value="zebrafish"`} {
			if !strings.Contains(body, w) {
				t.Errorf("results page (%d): no %q", status, w)
			}
		}
		if strings.Contains(body, "Zebrafish minutes") {
			t.Errorf("results page shows a page of a space the reader may not see")
		}
		if status, _, body := h.get(t, reader, sp+"/~/search?q=zebrafish"); status != http.StatusOK || !strings.Contains(body, "<mark>zebrafish</mark>") {
			t.Errorf("space results page: %d", status)
		}
		if status, _, _ := h.get(t, reader, sp+"/~/search?q="+strings.Repeat("a", 600)); status != http.StatusBadRequest {
			t.Errorf("a query too long: %d, want 400", status)
		}
	})
}

// TestSearchResultsPaged lists a space's many results a page at a time,
// with links to the next and the first page, and refuses a cursor it
// did not give.
func TestSearchResultsPaged(t *testing.T) {
	forEachEngine(t, func(t *testing.T, h *harness) {
		sv, err := h.Svc.CreateSpace(context.Background(), h.Admin, h.Org, service.SpaceInput{Title: "Zoo"})
		if err != nil {
			t.Fatal(err)
		}
		top := ""
		var changes []service.ContentChange
		for i := range 25 {
			n := strconv.Itoa(i)
			changes = append(changes, pageChange("p"+n, "Quokka "+n, "quokka-"+n, "A quokka, number "+n+".\n", &top))
		}
		h.writeAndMerge(t, sv.Space.ID, "Quokkas", changes...)
		h.awaitIndexed(t, sv.Space.ID)
		c := h.client(t, h.signIn(t, h.Admin))
		sp := "/app/s/" + sv.Space.ID

		_, _, first := h.get(t, c, sp+"/~/search?q=quokka")
		if n := strings.Count(first, `class="search-list-title"`); n != 20 {
			t.Errorf("the first page lists %d results, want 20", n)
		}
		more := `href="` + sp + `/~/search?q=quokka&amp;page=20" rel="next">More results</a>`
		if !strings.Contains(first, "25 results for") || !strings.Contains(first, more) || strings.Contains(first, "First results") {
			t.Errorf("the first page does not count 25 results and link the next page only")
		}
		_, _, second := h.get(t, c, sp+"/~/search?q=quokka&page=20")
		if n := strings.Count(second, `class="search-list-title"`); n != 5 {
			t.Errorf("the second page lists %d results, want 5", n)
		}
		if !strings.Contains(second, `href="`+sp+`/~/search?q=quokka">First results</a>`) || strings.Contains(second, "More results") {
			t.Errorf("the last page does not link the first page only")
		}
		for _, bad := range []string{"abc", "-1"} {
			status, _, body := h.get(t, c, sp+"/~/search?q=quokka&page="+bad)
			if status != http.StatusBadRequest || !strings.Contains(body, "page") {
				t.Errorf("a cursor %q: %d, want 400 naming the page", bad, status)
			}
		}
		// The organization's results count spaces, all on one page here.
		_, _, org := h.get(t, c, "/app/o/"+h.Org+"/search?q=quokka")
		if !strings.Contains(org, "1 space with results") || strings.Contains(org, "More results") {
			t.Errorf("the organization's results page does not count one space")
		}
	})
}

// TestSpaceTreeBranches checks that a space's pages draw only the open
// part of its tree, and that a closed branch's pages are listed at its
// address, for the current content, a revision and a change request,
// and for no one outside.
func TestSpaceTreeBranches(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		f := newSpaceFixture(t, h)
		reader := h.newUser(t, "rita@acme.test", "Rita Reader", quire.RoleRead)
		c := h.client(t, h.signIn(t, reader))
		sp := "/app/s/" + f.Space.ID
		cr := sp + "/~/changes/" + strconv.Itoa(f.Open)
		old := sp + "/~/revisions/" + f.OldRevision
		branch := sp + "/~/tree?page=" + f.Install

		// On the space's home, Install is closed: its toggle names where
		// its pages are, and Linux is not drawn.
		_, _, body := h.get(t, c, sp)
		if !strings.Contains(body, `data-branch="`+strings.ReplaceAll(branch, "&", "&amp;")+`"`) {
			t.Errorf("the home page's tree has no branch address for Install")
		}
		if strings.Contains(body, ">Linux</a>") {
			t.Errorf("the home page draws a page of a closed branch")
		}
		// On Linux's page, the branches above it are open and drawn.
		_, _, body = h.get(t, c, sp+"/guides/install/linux")
		if !strings.Contains(body, `<ul id="tree-`+f.Install+`">`) || !strings.Contains(body, `aria-current="page">Linux</a>`) {
			t.Errorf("Linux's page does not draw the branch holding it open")
		}

		for _, tc := range []struct{ path, want string }{
			{branch, `href="` + sp + `/guides/install/linux">Linux</a>`},
			{sp + "/~/tree?revision=" + f.OldRevision + "&page=" + f.Install, `href="` + old + `/guides/install/linux">Linux</a>`},
			{sp + "/~/tree?change=" + strconv.Itoa(f.Open) + "&page=" + f.Install, `href="` + cr + `/guides/install/linux">Linux</a>`},
		} {
			status, _, body := h.get(t, c, tc.path)
			if status != http.StatusOK {
				t.Errorf("GET %s: %d, want 200", tc.path, status)
			}
			if !strings.HasPrefix(body, "<li>") || !strings.Contains(body, tc.want) {
				t.Errorf("GET %s: %q, want items with %q", tc.path, body, tc.want)
			}
		}
		res, err := c.Get(h.URL + branch)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if ct := res.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Errorf("a branch is answered as %q, want HTML", ct)
		}
		// A page without pages below lists none.
		if status, _, body := h.get(t, c, sp+"/~/tree?page="+f.Linux); status != http.StatusOK || body != "" {
			t.Errorf("the branch of a page without pages below: %d %q", status, body)
		}

		outsider := h.client(t, h.signIn(t, h.newUser(t, "olga@other.test", "Olga Outside", "")))
		if status, _, _ := h.get(t, outsider, branch); status != http.StatusNotFound {
			t.Errorf("outsider GET %s: %d, want 404", branch, status)
		}
		for _, p := range []string{sp + "/~/tree", sp + "/~/tree?page=nosuchpage", sp + "/~/tree?change=abc&page=" + f.Install,
			sp + "/~/tree?change=999&page=" + f.Install, sp + "/~/tree?revision=&page=" + f.Install,
			sp + "/~/tree?revision=nosuchrevision&page=" + f.Install, "/app/s/nosuchspace/~/tree?page=" + f.Install} {
			if status, _, _ := h.get(t, c, p); status != http.StatusNotFound {
				t.Errorf("GET %s: %d, want 404", p, status)
			}
		}
	})
}
