package httpapi

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
)

// pngImage is a 1×1 PNG.
var pngImage = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89" +
	"\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")

// svgImage is an SVG that would run a script if it were served as a page.
var svgImage = []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="1" height="1"/></svg>`)

// imagePath is the path below the server of an image address answered.
func imagePath(t *testing.T, u string) string {
	t.Helper()
	p, ok := strings.CutPrefix(u, testBaseURL+"/integrations/")
	if !ok {
		t.Fatalf("image address %q is not below %s/integrations/", u, testBaseURL)
	}
	return "/integrations/" + p
}

func TestIntegrationImagesAreServed(t *testing.T) {
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		b64 := base64.StdEncoding.EncodeToString
		in := ts.publish(t, "pictured", map[string]any{"icon": b64(pngImage),
			"previewImages": []string{b64(svgImage), b64([]byte("not an image"))}, "visibility": "private"})
		icon := imagePath(t, str(in, "urls.icon"))
		previews := in["previewImages"].([]any)
		if len(previews) != 2 {
			t.Fatalf("previewImages: %v", in["previewImages"])
		}

		// Anyone with the address reads the image; the address is what
		// keeps a private integration's images to those it was shown to.
		r := ts.wantVisit(t, http.StatusOK, icon, nil)
		if !bytes.Equal(r.Body, pngImage) || r.Header.Get("Content-Type") != "image/png" {
			t.Errorf("icon: %q, %v", r.Body, r.Header)
		}
		if !strings.Contains(r.Header.Get("Cache-Control"), "immutable") {
			t.Errorf("icon caching: %v", r.Header)
		}
		r = ts.wantVisit(t, http.StatusOK, imagePath(t, previews[0].(string)), nil)
		if !bytes.Equal(r.Body, svgImage) || r.Header.Get("Content-Type") != "image/svg+xml" ||
			!strings.Contains(r.Header.Get("Content-Security-Policy"), "sandbox") || r.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("SVG preview: %v", r.Header)
		}
		r = ts.wantVisit(t, http.StatusOK, imagePath(t, previews[1].(string)), nil)
		if r.Header.Get("Content-Type") != "application/octet-stream" || r.Header.Get("Content-Disposition") != "attachment" {
			t.Errorf("a preview that is no image is served as %q", r.Header.Get("Content-Type"))
		}

		// The address names one image of one integration.
		ts.wantVisit(t, http.StatusNotFound, "/integrations/pictured/images/0123456789abcdef0123456789abcdef", nil)
		ts.wantVisit(t, http.StatusNotFound, strings.Replace(icon, "/pictured/", "/nobody/", 1), nil)

		// A new icon has a new address; the old one is gone. No icon, no
		// address.
		again := ts.publish(t, "pictured", map[string]any{"icon": b64(svgImage), "visibility": "private"})
		if next := imagePath(t, str(again, "urls.icon")); next == icon {
			t.Errorf("a new icon kept the address %s", icon)
		}
		ts.wantVisit(t, http.StatusNotFound, icon, nil)
		if p := again["previewImages"].([]any); len(p) != 0 {
			t.Errorf("previewImages after a publication without them: %v", p)
		}
		bare := ts.publish(t, "plain", nil)
		if _, ok := bare["urls"].(map[string]any)["icon"]; ok {
			t.Errorf("an integration without an icon has urls.icon: %v", bare["urls"])
		}
	})
}
