package app

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"

	"quire/internal/reader"
)

//go:embed assets/app.css assets/app.js assets/live.js
var assetFS embed.FS

// assetsPath is where the app's stylesheets and script are served, each
// under a name holding a hash of its content, so browsers may keep it
// for good.
const assetsPath = "/app/~assets/"

// asset is one served file.
type asset struct {
	body        []byte
	contentType string
}

// assets are the app's files by their hashed names, with the reader's
// stylesheet among them: a page in the app looks as it does to readers.
type assets struct {
	byName map[string]asset
	urls   map[string]string // logical name → address
	// readerScripts are the reader's own scripts, served by the reader.
	themeURL, pageURL string
}

// newAssets names each file after its content.
func newAssets(render *reader.Renderer) (*assets, error) {
	as := &assets{byName: map[string]asset{}, urls: map[string]string{},
		themeURL: render.ThemeScriptURL(), pageURL: render.PageScriptURL()}
	as.add("reader.css", []byte(render.Stylesheet()), "text/css; charset=utf-8")
	for _, f := range []struct{ name, ctype string }{
		{"app.css", "text/css; charset=utf-8"},
		{"app.js", "text/javascript; charset=utf-8"},
		{"live.js", "text/javascript; charset=utf-8"},
	} {
		body, err := assetFS.ReadFile("assets/" + f.name)
		if err != nil {
			return nil, err
		}
		as.add(f.name, body, f.ctype)
	}
	return as, nil
}

// add serves body under name with its hash inserted before the extension.
func (as *assets) add(name string, body []byte, ctype string) {
	sum := sha256.Sum256(body)
	dot := strings.LastIndexByte(name, '.')
	hashed := name[:dot] + "." + hex.EncodeToString(sum[:8]) + name[dot:]
	as.byName[hashed] = asset{body: body, contentType: ctype}
	as.urls[name] = assetsPath + hashed
}

// url returns the address of a file by its logical name: the app's own,
// or "theme.js" and "reader.js", the reader's scripts.
func (as *assets) url(name string) string {
	switch name {
	case "theme.js":
		return as.themeURL
	case "reader.js":
		return as.pageURL
	}
	return as.urls[name]
}

// serve answers a hashed name, kept by browsers for a year.
func (a *App) serveAsset(w http.ResponseWriter, r *http.Request) error {
	f, ok := a.assets.byName[r.PathValue("name")]
	if !ok {
		http.NotFound(w, r)
		return nil
	}
	h := w.Header()
	h.Set("Content-Type", f.contentType)
	h.Set("Content-Length", strconv.Itoa(len(f.body)))
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	_, err := w.Write(f.body)
	return err
}
