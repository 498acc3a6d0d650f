package app_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// TestShellAccess checks who gets which answer from the organization's
// page: sign in first, a 404 that says nothing to outsiders (the same as
// for an organization that does not exist), the page for members.
func TestShellAccess(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		anon := h.client(t, nil)
		status, loc, _ := h.get(t, anon, "/app/o/"+h.Org+"?tab=x")
		if status != http.StatusSeeOther || loc != "/app/sign-in?next="+url.QueryEscape("/app/o/"+h.Org+"?tab=x") {
			t.Fatalf("anonymous: %d %q", status, loc)
		}

		outsider := h.client(t, h.signIn(t, h.newUser(t, "otto@other.test", "Otto Outsider", "")))
		status, _, body := h.get(t, outsider, "/app/o/"+h.Org)
		_, _, missing := h.get(t, outsider, "/app/o/nosuchorg")
		if status != http.StatusNotFound || strings.Contains(body, "Acme") || body != missing {
			t.Fatalf("outsider: %d, page differs from a missing organization's: %v\n%s", status, body != missing, body)
		}
		status, loc, _ = h.get(t, outsider, "/app/")
		if status != http.StatusOK || loc != "" {
			t.Fatalf("outsider home: %d %q", status, loc)
		}

		admin := h.client(t, h.signIn(t, h.Admin))
		status, loc, _ = h.get(t, admin, "/app/")
		if status != http.StatusSeeOther || loc != "/app/o/"+h.Org {
			t.Fatalf("admin home: %d %q", status, loc)
		}
		status, _, body = h.get(t, admin, "/app/o/"+h.Org)
		if status != http.StatusOK || !strings.Contains(body, "<h1>Acme Docs</h1>") {
			t.Fatalf("admin org page: %d\n%s", status, body)
		}
		if status, _, _ := h.get(t, admin, "/app/o/"+h.Org+"/no-such-page"); status != http.StatusNotFound {
			t.Fatalf("unknown app page: %d", status)
		}
	})
}

// TestShellRefusesCrossOrigin checks that a state-changing request from
// another site is refused before any handler runs, session or not.
func TestShellRefusesCrossOrigin(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		c := h.client(t, h.signIn(t, h.Admin))
		status, _, body := h.do(t, c, http.MethodPost, "/app/sign-out", strings.NewReader("a=b"), http.Header{
			"Content-Type": {"application/x-www-form-urlencoded"}, "Origin": {"https://evil.example"}, "Sec-Fetch-Site": {"cross-site"}})
		if status != http.StatusForbidden || !strings.Contains(body, "came from another site") {
			t.Fatalf("cross-site POST: %d\n%s", status, body)
		}
		if status, _, _ := h.get(t, c, "/app/o/"+h.Org); status != http.StatusOK {
			t.Fatalf("the refused sign-out ended the session: %d", status)
		}
		if status, loc, _ := h.postForm(t, c, "/app/sign-out", nil); status != http.StatusSeeOther || loc != "/app/sign-in" {
			t.Fatalf("sign out: %d %q", status, loc)
		}
		if status, _, _ := h.get(t, c, "/app/o/"+h.Org); status != http.StatusSeeOther {
			t.Fatalf("after sign-out: %d", status)
		}
	})
}

// TestShellTree checks the sidebar's tree: collections and spaces nested
// and ordered as the API lists them, and only what the person may see.
func TestShellTree(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		guides, err := h.Svc.CreateCollection(ctx, h.Admin, h.Org, "Guides", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Install", Parent: guides.Collection.ID}); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Changelog"}); err != nil {
			t.Fatal(err)
		}
		reader := h.newUser(t, "rita@acme.test", "Rita Read", quire.RoleRead)
		_, _, body := h.get(t, h.client(t, h.signIn(t, reader)), "/app/o/"+h.Org)
		tree := regexp.MustCompile(`(?s)<ul class="app-tree".*?</nav>`).FindString(body)
		order := regexp.MustCompile(`>(Guides|Install|Changelog)</a>`).FindAllStringSubmatch(tree, -1)
		var got []string
		for _, m := range order {
			got = append(got, m[1])
		}
		if strings.Join(got, ",") != "Guides,Install,Changelog" || !strings.Contains(tree, "<ul><li><a href=\"/app/s/") {
			t.Fatalf("tree order %v\n%s", got, tree)
		}
		if strings.Contains(body, "Invite links") {
			t.Fatal("a reader is offered the invite links page")
		}
	})
}
