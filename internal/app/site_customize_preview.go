package app

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"quire/internal/document"
	"quire/internal/quire"
	"quire/internal/reader"
	"quire/internal/search"
	"quire/internal/service"
	"quire/internal/sitepage"
)

// previewPathCookie keeps, for the preview of a site, the page its
// frame showed last, so that drawing the preview again with the form's
// values stays on the page the person went to.
const previewPathCookie = "quire-preview-path"

// previewBase is where the preview of a site's pages is served: every
// link of the pages drawn there starts with it.
func previewBase(orgID, siteID string) string {
	return customizePath(orgID, siteID, "") + "/preview/"
}

// previewSiteCustomization draws a page of the site as its readers would
// get it with the customization form's values, saved or not: the page
// the form's path names, else the site's first. A form that would be
// refused draws a page saying why.
func (a *App) previewSiteCustomization(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	if _, err := sites.Site(r.Context(), r.PathValue("organizationId"), r.PathValue("siteId")); err != nil {
		return a.previewProblem(w, r, err)
	}
	if err := parseCustomizeForm(w, r); err != nil {
		return a.previewProblem(w, r, err)
	}
	c, _, err := readCustomization(r.PostForm)
	if err == nil {
		err = checkCustomization(&c)
	}
	if field, msg, ok := formError(err); ok {
		return a.previewProblem(w, r, quire.Invalid("", "%s", markRefusal(customizeGroups(c, ""), field, msg)))
	}
	path := r.PostFormValue("path")
	if ck, err := r.Cookie(previewPathCookie); err == nil {
		if p, err := url.QueryUnescape(ck.Value); err == nil {
			path = p
		}
	}
	return a.drawPreview(w, r, sites, &c, strings.TrimPrefix(path, "/"))
}

// sitePreviewPage draws a page of the site's preview with the saved
// customization: the pages the preview's links lead to, their search
// and files.
func (a *App) sitePreviewPage(w http.ResponseWriter, r *http.Request) error {
	sites, err := a.sitesService()
	if err != nil {
		return err
	}
	return a.drawPreview(w, r, sites, nil, r.PathValue("path"))
}

// drawPreview draws the page at path below the site, with customization
// c (nil: the saved one), through the reader as a published site is
// drawn. The answer is never kept by a cache (the route wrapper says
// no-store) and is framed by the app's own pages only.
func (a *App) drawPreview(w http.ResponseWriter, r *http.Request, sites *service.Sites, c *settings, path string) error {
	ctx := r.Context()
	orgID, siteID := r.PathValue("organizationId"), r.PathValue("siteId")
	rd, err := service.NewSiteReader(sites)
	if err != nil {
		return err
	}
	v, err := rd.Preview(ctx, userFrom(ctx), orgID, siteID, previewBase(orgID, siteID), c)
	if err != nil {
		return a.previewProblem(w, r, err)
	}
	switch {
	case strings.HasPrefix(path, "~files/"):
		return previewFile(w, r, v, strings.TrimPrefix(path, "~files/"))
	case path == "~search":
		return a.previewSearch(w, r, rd, v)
	}
	p, err := rd.Page(ctx, v, path)
	if quire.IsNotFound(err) && path == "" {
		// A site showing no space the member may read: its frame alone.
		return a.writePreview(w, http.StatusOK, &reader.Page{Site: previewSite(v), Title: v.Site.Title, NoIndex: true,
			Document: document.New(document.Paragraph("This site shows no space you may read yet."))})
	}
	if err != nil {
		return a.previewProblem(w, r, err)
	}
	if p.Redirect != "" {
		http.Redirect(w, r, p.Redirect, http.StatusFound)
		return nil
	}
	page := sitepage.Page(p)
	page.NoIndex = true
	if p.Markdown {
		text, err := reader.PageMarkdown(ctx, page)
		if err != nil {
			return a.previewProblem(w, r, err)
		}
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		_, err = w.Write([]byte(text))
		return err
	}
	var buf bytes.Buffer
	if err := a.reader.RenderPage(&buf, page); err != nil {
		return err
	}
	if err := p.Err(); err != nil {
		return a.previewProblem(w, r, err)
	}
	if c == nil {
		http.SetCookie(w, &http.Cookie{Name: previewPathCookie, Value: url.QueryEscape(path), Path: strings.TrimSuffix(previewBase(orgID, siteID), "/"),
			HttpOnly: true, Secure: a.secure, SameSite: http.SameSiteStrictMode})
	}
	setPreviewHeaders(w.Header())
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	_, err = w.Write(buf.Bytes())
	return err
}

// previewSite is the frame of a site's pages, from its customization.
func previewSite(v *service.SiteVisit) reader.Site {
	return reader.SiteFromCustomization(*v.Customization, reader.SiteOptions{Title: v.Site.Title, HomeURL: v.Base})
}

// setPreviewHeaders sets the headers of a page of the preview: the
// reader's policy, which lets pages of the same origin (the app's
// customization page) frame it.
func setPreviewHeaders(h http.Header) {
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", reader.ContentSecurityPolicy)
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Robots-Tag", "noindex")
	h.Set("Cache-Control", "no-store")
}

// writePreview renders a page of the preview with a status.
func (a *App) writePreview(w http.ResponseWriter, status int, p *reader.Page) error {
	var buf bytes.Buffer
	if err := a.reader.RenderPage(&buf, p); err != nil {
		return err
	}
	setPreviewHeaders(w.Header())
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	_, err := w.Write(buf.Bytes())
	return err
}

// previewProblem answers, inside the preview's frame, why a page cannot
// be shown: the app's own error pages may not be framed. Unexpected
// errors are logged and told as such.
func (a *App) previewProblem(w http.ResponseWriter, r *http.Request, err error) error {
	title, text, status := "Preview not shown", "", http.StatusInternalServerError
	switch quire.ErrorCode(err) {
	case quire.EINVALID:
		_, msg, _ := formError(err)
		text, status = msg, http.StatusUnprocessableEntity
	case quire.ENOTFOUND:
		title, text, status = "Page not found", "There is no page at this address, or it is not yours to read.", http.StatusNotFound
	default:
		a.log.ErrorContext(r.Context(), "previewing a site", "path", r.URL.Path, "err", err)
		text = "Something went wrong on our side. Try again."
	}
	return a.writePreview(w, status, &reader.Page{Site: reader.Site{Title: "Preview", HomeURL: "#"}, Title: title,
		Document: document.New(document.Paragraph(text)), NoIndex: true})
}

// previewFile sends a file a page of the preview shows (~files/<site
// space>/<revision>/<file>) to the app's own address of the file, which
// serves it as the space's files are.
func previewFile(w http.ResponseWriter, r *http.Request, v *service.SiteVisit, rest string) error {
	parts := strings.Split(rest, "/")
	if len(parts) == 3 {
		for _, ss := range v.SiteSpaces {
			if ss.SiteSpace.ID == parts[0] {
				http.Redirect(w, r, "/app/s/"+url.PathEscape(ss.Space.Space.ID)+"/~/files/"+url.PathEscape(parts[1])+"/"+url.PathEscape(parts[2]), http.StatusFound)
				return nil
			}
		}
	}
	return quire.NotFound("file")
}

// previewSearch answers the preview's search box: the hits as JSON to
// its script, or the results page.
func (a *App) previewSearch(w http.ResponseWriter, r *http.Request, rd *service.SiteReader, v *service.SiteVisit) error {
	q := r.URL.Query().Get("q")
	hits, err := rd.Search(r.Context(), v, q)
	if err != nil {
		return a.previewProblem(w, r, err)
	}
	if !strings.Contains(r.Header.Get("Accept"), "text/html") {
		w.Header().Set("Content-Type", "application/json")
		return json.NewEncoder(w).Encode(hits)
	}
	p := &reader.SearchPage{Site: previewSite(v), Search: reader.Search{Action: v.Base + "~search", JSONURL: v.Base + "~search", Query: q},
		Results: make([]reader.SearchResult, 0, len(hits))}
	for _, h := range hits {
		p.Results = append(p.Results, reader.SearchResult{URL: h.URL, Title: textParts(h.TitleParts), Section: h.Section, Snippet: textParts(h.Snippet)})
	}
	var buf bytes.Buffer
	if err := a.reader.RenderSearch(&buf, p); err != nil {
		return err
	}
	setPreviewHeaders(w.Header())
	_, err = w.Write(buf.Bytes())
	return err
}

// textParts converts a search's marked fragments for the reader.
func textParts(fs []search.Fragment) []reader.TextPart {
	out := make([]reader.TextPart, len(fs))
	for i, f := range fs {
		out[i] = reader.TextPart{Text: f.Text, Mark: f.Mark}
	}
	return out
}
