package httpapi

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// uriText is what a URI (RFC 3986) may hold: a scheme, then unreserved and
// reserved characters and percent escapes only.
var uriText = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:([A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$`)

// wantURIs checks that every string of every urls object in an answer is
// a URI.
func wantURIs(t *testing.T, where string, v any) {
	t.Helper()
	var walk func(path string, v any, inURLs bool)
	walk = func(path string, v any, inURLs bool) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				walk(path+"."+k, c, inURLs || k == "urls")
			}
		case []any:
			for i, c := range x {
				walk(path+"."+itoa(i), c, false)
			}
		case string:
			if inURLs && !uriText.MatchString(x) {
				t.Errorf("%s%s = %q: not a URI", where, path, x)
			}
		}
	}
	walk("", v, false)
}

func TestAnsweredURLsArePercentEncoded(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		sp := ts.newSpace(t, "Guide")
		page := ts.seedPage(t, sp, "Café 中文", "Intro.\n\n## Über uns\n\nWombats dig tunnels.\n")
		ts.awaitIndexed(t, sp)
		pageURL := testBaseURL + "/app/s/" + sp + "/caf%C3%A9-%E4%B8%AD%E6%96%87"

		found := ts.must(t, 200, "GET", "/v1/spaces/"+sp+"/search?query=wombats", admin, nil)
		wantFields(t, found, map[string]any{"items.0.id": page, "items.0.path": "café-中文",
			"items.0.urls.app": pageURL, "items.0.sections.0.path": "café-中文#über-uns",
			"items.0.sections.0.urls.app": pageURL + "#%C3%BCber-uns"})
		wantURIs(t, "space search", found)
		org := ts.must(t, 200, "GET", ts.OrgPath("/search?query=wombats"), admin, nil)
		wantFields(t, org, map[string]any{"items.0.pages.0.urls.app": pageURL})
		wantURIs(t, "organization search", org)

		read := ts.must(t, 200, "GET", "/v1/spaces/"+sp+"/content/page/"+page, admin, nil)
		wantFields(t, read, map[string]any{"urls.app": pageURL})
		wantURIs(t, "page", read)
		byPath := ts.must(t, 200, "GET", "/v1/spaces/"+sp+"/content/path/"+url.PathEscape("café-中文"), admin, nil)
		wantFields(t, byPath, map[string]any{"id": page, "urls.app": pageURL})
		tree := ts.must(t, 200, "GET", "/v1/spaces/"+sp+"/content", admin, nil)
		wantURIs(t, "content", tree)

		// A URL a user gave keeps its meaning, escaped where it must be.
		space := ts.must(t, 200, "PATCH", "/v1/spaces/"+sp, admin,
			map[string]any{"icon": "https://example.com/icônes/logo.png?taille=très", "visibility": "public"})
		wantFields(t, space, map[string]any{
			"urls.icon":      "https://example.com/ic%C3%B4nes/logo.png?taille=tr%C3%A8s",
			"urls.published": testBaseURL + "/docs/" + sp})
		wantURIs(t, "space", space)
		if !strings.HasPrefix(str(space, "urls.app"), testBaseURL+"/app/s/") {
			t.Errorf("space urls.app = %q", str(space, "urls.app"))
		}
	})
}
