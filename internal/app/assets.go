package app

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"quire/internal/reader"
)

//go:embed assets/*.css assets/*.js
var assetFS embed.FS

// assetType is the content type of one of the app's files, by its
// extension: the embed pattern takes stylesheets and scripts only.
func assetType(name string) string {
	if path.Ext(name) == ".css" {
		return "text/css; charset=utf-8"
	}
	return "text/javascript; charset=utf-8"
}

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

// newAssets minifies each file and names it after its content.
func newAssets(render *reader.Renderer) (*assets, error) {
	as := &assets{byName: map[string]asset{}, urls: map[string]string{},
		themeURL: render.ThemeScriptURL(), pageURL: render.PageScriptURL()}
	if err := as.add("reader.css", []byte(render.Stylesheet()), "text/css; charset=utf-8"); err != nil {
		return nil, err
	}
	files, err := assetFS.ReadDir("assets")
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		body, err := assetFS.ReadFile("assets/" + f.Name())
		if err != nil {
			return nil, err
		}
		if err := as.add(f.Name(), body, assetType(f.Name())); err != nil {
			return nil, err
		}
	}
	return as, nil
}

// minify returns a stylesheet or script as it is served: esbuild's
// minifier, in process when the server starts, drops the comments and
// the spacing and shortens local names. The files stay as written in
// the source tree; browsers load about half the bytes.
func minify(name string, body []byte) ([]byte, error) {
	loader := api.LoaderJS
	if path.Ext(name) == ".css" {
		loader = api.LoaderCSS
	}
	res := api.Transform(string(body), api.TransformOptions{Loader: loader, Sourcefile: name,
		MinifyWhitespace: true, MinifySyntax: true, MinifyIdentifiers: true, LegalComments: api.LegalCommentsNone,
		// No newer syntax than the sources use: browsers a few years old
		// run them as written.
		Target: api.ES2017})
	if len(res.Errors) > 0 {
		e := res.Errors[0]
		line := 0
		if e.Location != nil {
			line = e.Location.Line
		}
		return nil, fmt.Errorf("asset %s line %d: %s", name, line, e.Text)
	}
	return res.Code, nil
}

// add serves body, minified, under name with its hash inserted before
// the extension.
func (as *assets) add(name string, body []byte, ctype string) error {
	body, err := minify(name, body)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(body)
	dot := strings.LastIndexByte(name, '.')
	hashed := name[:dot] + "." + hex.EncodeToString(sum[:8]) + name[dot:]
	as.byName[hashed] = asset{body: body, contentType: ctype}
	as.urls[name] = assetsPath + hashed
	return nil
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
