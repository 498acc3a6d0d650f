package httpapi

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	lru "github.com/hashicorp/golang-lru/v2"

	"quire/internal/document"
	"quire/internal/quire"
	"quire/internal/reader"
	"quire/internal/readermcp"
	"quire/internal/service"
)

// Cookies of the site reader.
const (
	// visitorTokenCookie keeps a visitor's token (?jwt_token=).
	visitorTokenCookie = "gitbook-visitor-token"
	// visitorPublicCookie holds a visitor's unsigned claims as JSON.
	visitorPublicCookie = "gitbook-visitor-public"
	// shareKeyCookie keeps the share key a visitor came with.
	shareKeyCookie = "quire-site-share"
)

// publicPageMaxAge is how long shared caches may keep a page of a public
// site, in seconds.
const publicPageMaxAge = "60"

// registerSiteReader serves published sites under /sites/: pages, their
// Markdown, files, search, sitemap.xml, robots.txt and llms.txt. These
// are pages for readers, not operations of the API: the site decides who
// may read them (visibility, share links, visitor tokens), not the
// caller's API token.
func (s *Server) registerSiteReader() {
	if s.cfg.Sites != nil {
		s.sites = s.cfg.Sites
	} else if r, err := service.NewSiteReader(s.siteSvc); err == nil {
		s.sites = r
	} else {
		s.log.Error("the site reader could not start", "err", err)
	}
	if r, err := reader.New(); err == nil {
		s.render = r
	} else {
		s.sites = nil
		s.log.Error("the site reader could not start", "err", err)
	}
	s.pages, _ = lru.New[string, []byte](renderedPagesSize) // size > 0 cannot fail
	if s.render != nil {
		s.mux.Handle("GET "+reader.AssetsPath+"{name}", s.render.AssetsHandler())
	}
	s.mux.HandleFunc("GET /sites/{site}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Path+"/", http.StatusMovedPermanently)
	})
	s.mux.HandleFunc("GET /sites/{site}/{rest...}", s.readSite)
	// A space's published URL leads to a site showing it.
	s.browser(BrowserRoute{ID: "readPublishedSpace", Method: http.MethodGet, Path: "/docs/{spaceId}", Public: true}, s.readSpace)
	s.browser(BrowserRoute{ID: "readPublishedSpacePage", Method: http.MethodGet, Path: "/docs/{spaceId}/{rest...}", Public: true}, s.readSpace)
	s.mcp = readermcp.New(readermcp.Options{Logger: s.log})
	s.mux.HandleFunc("POST /sites/{site}/{rest...}", s.siteMCP)
}

// visitorFrom reads what a visitor brings: a share key from the path
// (…/~share/<key>/), ?share= or its cookie; a visitor token from
// ?jwt_token= or its cookie; unsigned claims from their cookie. Keys and
// tokens that came in the request are kept in cookies scoped to the site.
func (s *Server) visitorFrom(w http.ResponseWriter, r *http.Request, name string, rest *string) service.Visitor {
	var v service.Visitor
	site := "/sites/" + name + "/"
	keep := func(cookie, value string) {
		http.SetCookie(w, &http.Cookie{Name: cookie, Value: value, Path: site, HttpOnly: true,
			Secure: s.secure, SameSite: http.SameSiteLaxMode})
	}
	if k, after, ok := strings.Cut(strings.TrimPrefix(*rest, "~share/"), "/"); ok && strings.HasPrefix(*rest, "~share/") {
		v.ShareKey, v.ShareKeyInPath, *rest = k, true, after
		keep(shareKeyCookie, k)
	} else if k := r.URL.Query().Get("share"); k != "" {
		v.ShareKey = k
		keep(shareKeyCookie, k)
	} else if c, err := r.Cookie(shareKeyCookie); err == nil {
		v.ShareKey = c.Value
	}
	if t := r.URL.Query().Get("jwt_token"); t != "" {
		v.Token = t
		keep(visitorTokenCookie, t)
	} else if c, err := r.Cookie(visitorTokenCookie); err == nil {
		v.Token = c.Value
	}
	if c, err := r.Cookie(visitorPublicCookie); err == nil {
		raw := c.Value
		if un, err := url.QueryUnescape(raw); err == nil {
			raw = un
		}
		var claims map[string]any
		if json.Unmarshal([]byte(raw), &claims) == nil {
			v.Unsigned = claims
		}
	}
	return v
}

// readSite answers every address below a published site.
func (s *Server) readSite(w http.ResponseWriter, r *http.Request) {
	if s.sites == nil {
		http.Error(w, "published sites are not available", http.StatusServiceUnavailable)
		return
	}
	ctx := r.Context()
	name, rest := r.PathValue("site"), r.PathValue("rest")
	if name == "~share" || rest == "~share" {
		s.siteError(w, r, quire.NotFound("site"))
		return
	}
	if strings.HasPrefix(rest, "~share/") && !strings.Contains(strings.TrimPrefix(rest, "~share/"), "/") {
		http.Redirect(w, r, r.URL.Path+"/", http.StatusMovedPermanently)
		return
	}
	visitor := s.visitorFrom(w, r, name, &rest)
	if rest == "~search" && s.limits != nil && !s.limit(w, r, service.RateSearch, clientKey(r), s.refuseSearch) {
		return
	}
	v, err := s.sites.Visit(ctx, name, visitor)
	if err != nil {
		if !sendToSignIn(w, r, err, rest) {
			s.siteError(w, r, err)
		}
		return
	}
	h := w.Header()
	if !v.Indexable() {
		h.Set("X-Robots-Tag", "noindex")
	}
	if v.Public() {
		h.Set("Cache-Control", "public, max-age="+publicPageMaxAge)
	} else {
		h.Set("Cache-Control", "private, no-cache")
		h.Add("Vary", "Cookie")
	}
	switch {
	case rest == "~search":
		hits, err := s.sites.Search(ctx, v, r.URL.Query().Get("q"))
		if err != nil {
			s.siteError(w, r, err)
			return
		}
		if strings.Contains(r.Header.Get("Accept"), "text/html") {
			s.searchPage(w, r, v, r.URL.Query().Get("q"), hits)
			return
		}
		h.Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(hits)
	case strings.HasPrefix(rest, "~files/"):
		s.siteFile(w, r, v, strings.TrimPrefix(rest, "~files/"))
	case rest == "robots.txt":
		h.Set("Content-Type", "text/plain; charset=utf-8")
		if v.Indexable() {
			_, _ = io.WriteString(w, "User-agent: *\nAllow: /\nSitemap: "+asURI(s.urls.base+v.Base+"sitemap.xml")+"\n")
		} else {
			_, _ = io.WriteString(w, "User-agent: *\nDisallow: /\n")
		}
	case rest == "sitemap.xml":
		s.sitemap(w, r, v)
	case rest == "llms.txt":
		text, err := siteLLMsTxt(ctx, s.sites, v)
		if err != nil {
			s.siteError(w, r, err)
			return
		}
		h.Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, text)
	default:
		s.sitePage(w, r, v, rest)
	}
}

// readSpace answers a space's published URL (<base>/docs/<spaceId>,
// with a page path after it) with a redirect to where a public or
// unlisted site shows the space; 404 when none does. The redirect is
// temporary: sites change.
func (s *Server) readSpace(w http.ResponseWriter, r *http.Request) {
	if s.sites == nil {
		http.Error(w, "published sites are not available", http.StatusServiceUnavailable)
		return
	}
	to, err := s.sites.SpaceAddress(r.Context(), r.PathValue("spaceId"), r.PathValue("rest"))
	if err != nil {
		s.siteError(w, r, err)
		return
	}
	http.Redirect(w, r, to, http.StatusFound)
}

// sitePage answers a page, its Markdown or where it moved. A page
// rendered before is sent again without reading it.
func (s *Server) sitePage(w http.ResponseWriter, r *http.Request, v *service.SiteVisit, path string) {
	if !strings.HasSuffix(path, ".md") {
		if tag, ok := s.sites.PageTag(v, path); ok {
			if html, ok := s.pages.Get(tag); ok {
				sendSitePage(w, r, tag, html, "")
				return
			}
		}
	}
	p, err := s.sites.Page(r.Context(), v, path)
	if err != nil {
		s.siteError(w, r, err)
		return
	}
	if p.Redirect != "" {
		http.Redirect(w, r, p.Redirect, http.StatusMovedPermanently)
		return
	}
	if p.Markdown {
		text, err := pageMarkdown(r.Context(), p)
		if err != nil {
			s.siteError(w, r, err)
			return
		}
		sendSitePage(w, r, p.ETag, nil, text)
		return
	}
	html, err := s.renderSitePage(p)
	if err != nil {
		s.siteError(w, r, err)
		return
	}
	sendSitePage(w, r, p.ETag, html, "")
}

// sendSitePage sends a page of a site, as HTML or else as its Markdown,
// or that the visitor's copy is current.
func sendSitePage(w http.ResponseWriter, r *http.Request, etag string, html []byte, markdown string) {
	h := w.Header()
	h.Set("ETag", etag)
	if match := r.Header.Get("If-None-Match"); match != "" && etagMatches(match, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if html == nil {
		h.Set("Content-Type", "text/markdown; charset=utf-8")
		_, _ = io.WriteString(w, markdown)
		return
	}
	setReaderHeaders(h)
	h.Set("Content-Length", strconv.Itoa(len(html)))
	_, _ = w.Write(html)
}

// etagMatches tells whether an If-None-Match header names etag.
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// setReaderHeaders sets the headers of a reader's HTML page.
func setReaderHeaders(h http.Header) {
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", reader.ContentSecurityPolicy)
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
}

// siteFile sends a file of a site space's revision
// (~files/<site space>/<revision>/<file>); revisions never change, so a
// file may be kept for long.
func (s *Server) siteFile(w http.ResponseWriter, r *http.Request, v *service.SiteVisit, rest string) {
	parts := strings.Split(rest, "/")
	if len(parts) != 3 {
		s.siteError(w, r, quire.NotFound("file"))
		return
	}
	f, err := s.sites.OpenFile(r.Context(), v, parts[0], parts[1], parts[2])
	if err != nil {
		s.siteError(w, r, err)
		return
	}
	defer f.Body.Close()
	h := w.Header()
	ct, csp := siteFileType(f.File.Name, f.File.ContentType)
	h.Set("Content-Type", ct)
	h.Set("Content-Security-Policy", csp)
	if v.Public() {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "private, max-age=3600")
	}
	_, _ = io.Copy(w, f.Body)
}

// sitemap lists the indexable pages of a public site; other sites have an
// empty sitemap.
func (s *Server) sitemap(w http.ResponseWriter, r *http.Request, v *service.SiteVisit) {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	if v.Indexable() {
		pages, err := s.sites.Pages(r.Context(), v)
		if err != nil {
			s.siteError(w, r, err)
			return
		}
		for _, p := range pages {
			if !p.Indexable {
				continue
			}
			b.WriteString("<url><loc>")
			_ = xml.EscapeText(&b, []byte(asURI(s.urls.base+p.URL)))
			b.WriteString("</loc></url>\n")
		}
	}
	b.WriteString("</urlset>\n")
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	_, _ = w.Write(b.Bytes())
}

// writeReaderPage renders a page built here (search results, errors).
func (s *Server) writeReaderPage(w http.ResponseWriter, r *http.Request, status int, p *reader.Page) {
	var buf bytes.Buffer
	if err := s.render.RenderPage(&buf, p); err != nil {
		s.log.ErrorContext(r.Context(), "rendering a site page", "path", r.URL.Path, "err", err)
		http.Error(w, "the page could not be rendered", http.StatusInternalServerError)
		return
	}
	setReaderHeaders(w.Header())
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// sendToSignIn redirects a visitor refused by a visitor-auth site with a
// fallback URL to that address, with the path below the site they asked
// for in "location" (as "/install"), and reports whether it did.
func sendToSignIn(w http.ResponseWriter, r *http.Request, err error, rest string) bool {
	var in *service.SignIn
	if !errors.As(err, &in) || in.FallbackURL == "" {
		return false
	}
	u, perr := url.Parse(in.FallbackURL)
	if perr != nil {
		return false
	}
	q := u.Query()
	q.Set("location", "/"+rest)
	u.RawQuery = q.Encode()
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, u.String(), http.StatusFound)
	return true
}

// siteError answers an error as a reader's page: 404 for what does not
// exist or may not be seen, 401 for a site that asks visitors to sign in.
func (s *Server) siteError(w http.ResponseWriter, r *http.Request, err error) {
	var qe *quire.Error
	status, title, text := http.StatusInternalServerError, "Something went wrong", "The page could not be shown. Try again later."
	if errors.As(err, &qe) {
		switch qe.Code {
		case quire.ENOTFOUND:
			status, title, text = http.StatusNotFound, "Page not found", "There is no page at this address, or it is not yours to read."
		case quire.EUNAUTHORIZED:
			status, title, text = http.StatusUnauthorized, "Sign-in required", "This site is for signed-in visitors. Open it from the link you were given."
		case quire.ETOOMANY:
			status, title, text = http.StatusTooManyRequests, "Too many requests", capitalize(qe.Message)+"."
		}
	}
	if status == http.StatusInternalServerError {
		s.log.ErrorContext(r.Context(), "reading a site", "path", r.URL.Path, "err", err)
	}
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Robots-Tag", "noindex")
	h.Del("ETag")
	p := &reader.Page{Site: reader.Site{Title: title, HomeURL: "/", ThemeToggle: true}, Title: title,
		Document: document.New(document.Paragraph(text)), NoIndex: true}
	s.writeReaderPage(w, r, status, p)
}
