package app

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"

	"quire/internal/quire"
	"quire/internal/reader"
)

//go:embed templates/*.html templates/pages/*.html
var templateFS embed.FS

// ContentSecurityPolicy is the policy of every app page: scripts and
// styles only from the server's own files, so that text escaping the
// templates cannot run; images from anywhere, as documents embed them.
const ContentSecurityPolicy = "default-src 'self'; img-src * data:; style-src 'self'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// views holds one template set per page: the layouts with the page's own
// definitions of title, content and sidebar. A page's set is made on its
// first use: html/template copies every layout's parse tree into each
// set, about 250 KB a page, so making all of them up front held some
// 16 MB for pages a server may never draw (an API-only deployment draws
// none).
type views struct {
	base  *template.Template // the layouts, never executed, only cloned
	pages map[string]string  // page name to its file
	mu    sync.Mutex
	made  map[string]*template.Template
}

// parseViews parses the layouts and lists the pages under
// templates/pages; each page's set is made on first use (see views.page).
// The templates are embedded in the binary, so TestPageTemplatesParse
// parsing every page is the check a start-up parse would be.
func parseViews(a *App) (*views, error) {
	funcs := template.FuncMap{
		"pageTreeHTML": pageTreeHTML,
		// Page operations (page_ops*.go).
		"pageTreeEditHTML": pageTreeEditHTML,
		"safe":             func(u string) template.URL { return template.URL(reader.SafeURL(u)) },
		"roleName":         roleName,
		"levelAtLeast":     func(have quire.Level, want string) bool { return have >= levelNamed(want) },
		"asset":            a.assets.url,
		"treeHTML":         treeHTML,
		"plural":           plural,
	}
	base, err := template.New("app").Funcs(funcs).ParseFS(templateFS, "templates/*.html")
	if err != nil {
		return nil, err
	}
	files, err := fs.Glob(templateFS, "templates/pages/*.html")
	if err != nil {
		return nil, err
	}
	v := &views{base: base, pages: map[string]string{}, made: map[string]*template.Template{}}
	for _, p := range files {
		v.pages[strings.TrimSuffix(path.Base(p), ".html")] = p
	}
	return v, nil
}

// parse makes the template set of the page in file.
func (v *views) parse(file string) (*template.Template, error) {
	t, err := v.base.Clone()
	if err != nil {
		return nil, err
	}
	return t.ParseFS(templateFS, file)
}

// page returns the template set of the page name, making it on first use.
func (v *views) page(name string) (*template.Template, error) {
	file, ok := v.pages[name]
	if !ok {
		return nil, fmt.Errorf("app: no page template %q", name)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if t, ok := v.made[name]; ok {
		return t, nil
	}
	t, err := v.parse(file)
	if err != nil {
		return nil, err
	}
	v.made[name] = t
	return t, nil
}

// view is what a page template sees: the shell around it and its own
// data.
type view struct {
	Shell *Shell
	Data  any
}

// render draws a page inside the shell (header, sidebar, main).
func (a *App) render(w http.ResponseWriter, r *http.Request, status int, name string, sh *Shell, data any) error {
	return a.execute(w, status, name, "shell", view{Shell: sh, Data: data})
}

// renderBare draws a page without the shell: sign-in, sign-up and error
// pages, which stand alone. A page that cannot be drawn answers 500 with a
// line of plain text.
func (a *App) renderBare(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	buf, err := a.draw(name, "bare", view{Shell: &Shell{User: userFrom(r.Context())}, Data: data})
	if err != nil {
		a.log.ErrorContext(r.Context(), "drawing an app page", "page", name, "err", err)
		http.Error(w, "This page could not be drawn: the server's log says why.", http.StatusInternalServerError)
		return
	}
	_ = a.write(w, status, buf)
}

// execute draws a page, so that a template failure answers an error
// rather than half a page, then writes it.
func (a *App) execute(w http.ResponseWriter, status int, name, layout string, v view) error {
	buf, err := a.draw(name, layout, v)
	if err != nil {
		return err
	}
	return a.write(w, status, buf)
}

// draw runs a page's layout into a buffer.
func (a *App) draw(name, layout string, v view) (*bytes.Buffer, error) {
	t, err := a.views.page(name)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, layout, v); err != nil {
		return nil, fmt.Errorf("app: page %q: %w", name, err)
	}
	return &buf, nil
}

// write answers a drawn page with the app's headers.
func (a *App) write(w http.ResponseWriter, status int, buf *bytes.Buffer) error {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	_, err := w.Write(buf.Bytes())
	return err
}

// roleName is how the app names a role.
func roleName(r quire.Role) string {
	if r == "" {
		return "Guest"
	}
	s := string(r)
	return strings.ToUpper(s[:1]) + s[1:]
}

// levelNamed returns the level of a role's name, for templates that offer
// a control only to those it would serve; guest for anything else.
func levelNamed(name string) quire.Level {
	if l := quire.Role(name).Level(); l != quire.LevelNone {
		return l
	}
	return quire.LevelGuest
}

// plural counts n of something: "1 result", "2 results".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
