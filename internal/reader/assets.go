package reader

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
)

// AssetsPath is where the server serves the reader's scripts, each under
// a name holding a hash of its content, so that a name never changes
// meaning and browsers may keep it for good. It sits below /sites/,
// which no site name starting with "~" can take.
const AssetsPath = "/sites/~reader/"

// ContentSecurityPolicy is the policy of reader pages: scripts come only
// from the server's own files (no inline script, so text that escaped
// the templates cannot run); the stylesheet is inline.
const ContentSecurityPolicy = "default-src 'self'; img-src * data:; style-src 'unsafe-inline'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'"

// The scripts pages load.
const (
	// themeScript applies the theme before the page paints.
	themeScript = "theme.js"
	// pageScript runs the page: copy buttons, tabs, theme toggle,
	// sidebar, site-space switcher and search as you type.
	pageScript = "reader.js"
)

//go:embed assets/theme.js assets/reader.js
var scriptFS embed.FS

// assets are the embedded scripts by their hashed names.
type assets struct {
	byName map[string][]byte // hashed name → content
	names  map[string]string // file name → hashed name
}

// loadAssets reads the embedded scripts and names each after its
// content: reader.<hash>.js.
func loadAssets() (*assets, error) {
	a := &assets{byName: map[string][]byte{}, names: map[string]string{}}
	for _, file := range []string{themeScript, pageScript} {
		body, err := scriptFS.ReadFile("assets/" + file)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(body)
		base := strings.TrimSuffix(file, ".js")
		name := base + "." + hex.EncodeToString(sum[:8]) + ".js"
		a.byName[name] = body
		a.names[file] = name
	}
	return a, nil
}

// url returns the address of a script by its file name.
func (a *assets) url(file string) string { return AssetsPath + a.names[file] }

// AssetsHandler serves the reader's scripts at AssetsPath + their hashed
// name ({name} of the route), to be kept for a year; any other name is
// 404.
func (r *Renderer) AssetsHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, ok := r.assets.byName[req.PathValue("name")]
		if !ok {
			http.NotFound(w, req)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/javascript; charset=utf-8")
		h.Set("Content-Length", strconv.Itoa(len(body)))
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
		h.Set("X-Content-Type-Options", "nosniff")
		_, _ = w.Write(body)
	})
}

// Stylesheet returns the reader's stylesheet, code highlighting
// included, for other pages that show documents as readers see them.
func (r *Renderer) Stylesheet() string { return string(r.css) }

// ThemeScriptURL returns the address of the script that applies the
// reader's chosen theme before a page paints.
func (r *Renderer) ThemeScriptURL() string { return r.assets.url(themeScript) }

// PageScriptURL returns the address of the script that runs a document's
// interactive blocks (tabs, copy buttons, expandables).
func (r *Renderer) PageScriptURL() string { return r.assets.url(pageScript) }
