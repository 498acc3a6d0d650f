package importer

import (
	"context"
	"encoding/base64"
	"errors"
	"net/url"
	"path"
	"strconv"
	"strings"

	"quire/internal/quire"
)

// crawled is one page a crawl keeps.
type crawled struct {
	url   *url.URL // canonical
	page  *htmlPage
	title string
	segs  []string // slugs of its path below the crawl's prefix
	path  string   // its file in the repository
}

// wantHTML takes only HTML pages.
func wantHTML(mediaType string, _ *url.URL) bool {
	return mediaType == "text/html" || mediaType == "application/xhtml+xml"
}

// website crawls the site under start breadth-first: same scheme, host and
// path prefix, robots.txt honoured, one fetch per canonical URL, HTML
// pages only, until the page cap, the fetch cap or the byte cap. Each
// page's main content becomes a Markdown page; a SUMMARY.md keeps the
// order the crawl found them in.
func (r *run) website(ctx context.Context, start *url.URL) error {
	sc := scopeOf(start)
	allowed := r.robots(ctx, start)
	first := canonical(start)
	if !allowed(first) {
		return quire.Invalid("url", "the robots.txt of %s does not allow fetching %s", sc.host, redact(start))
	}
	maxPages := r.im.opts.MaxPages
	maxFetches := 2*maxPages + 10
	maxQueue := 20 * maxPages
	queue := []*url.URL{first}
	seen := map[string]bool{first.String(): true}
	byKey := map[string]*crawled{}
	aliases := map[string]string{} // canonical link -> URL of the page naming it
	kept := func(k string) bool { return byKey[k] != nil || byKey[aliases[k]] != nil }
	var pages []*crawled
	fetches := 0
	for len(queue) > 0 && len(pages) < maxPages && fetches < maxFetches {
		if err := ctx.Err(); err != nil {
			return err
		}
		c := queue[0]
		queue = queue[1:]
		isStart := c == first
		if kept(c.String()) {
			continue // the canonical link of a page already kept
		}
		if !isStart && !allowed(c) {
			r.skip(ctx, c, "disallowed by robots.txt")
			continue
		}
		target := *c
		target.User = start.User
		r.total++
		fetches++
		p, err := r.fetchPage(ctx, &target)
		if err != nil {
			if isStart {
				return r.urlError(ctx, start, err)
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			r.skip(ctx, c, err)
			if errors.Is(err, errBudget) {
				break
			}
			continue
		}
		if cu := p.canonical(); cu != nil {
			cc := canonical(cu)
			if k := cc.String(); sc.contains(cc) && k != c.String() {
				if kept(k) {
					r.skip(ctx, c, "same canonical URL as a page already imported")
					if byKey[k] == nil {
						k = aliases[k]
					}
					aliases[c.String()] = k
					continue
				}
				seen[k] = true
				aliases[k] = c.String()
			}
		}
		if !p.noIndex || isStart {
			cr := &crawled{url: c, page: p}
			pages = append(pages, cr)
			byKey[c.String()] = cr
		}
		if p.noFollow {
			continue
		}
		for _, l := range p.links() {
			lc := canonical(l)
			k := lc.String()
			if seen[k] || !sc.contains(lc) || len(queue) >= maxQueue {
				continue
			}
			seen[k] = true
			queue = append(queue, lc)
		}
	}
	for k, to := range aliases {
		if byKey[k] == nil && byKey[to] != nil {
			byKey[k] = byKey[to]
		}
	}
	r.placePages(pages, sc)
	lookup := func(u *url.URL) (string, bool) {
		if cr := byKey[canonical(u).String()]; cr != nil {
			return cr.path, true
		}
		return "", false
	}
	images := func(u *url.URL) (string, bool) {
		if c := canonical(u); c.Scheme == sc.scheme && c.Host == sc.host && !allowed(c) {
			return "", false
		}
		return r.image(ctx, u)
	}
	for _, cr := range pages {
		md, err := cr.page.toMarkdown(ctx, refs{self: cr.path, page: lookup, image: images, inline: r.inlineImage}, cr.title)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			r.skip(ctx, cr.url, err)
			md = []byte("# " + cr.title + "\n")
		}
		r.files[cr.path] = md
		r.imported++
	}
	r.files[SummaryPath] = summaryOf(pages)
	return nil
}

// fetchPage fetches and parses one HTML page.
func (r *run) fetchPage(ctx context.Context, u *url.URL) (*htmlPage, error) {
	d, err := r.get(ctx, u, wantHTML)
	if err != nil {
		return nil, err
	}
	return parseHTML(d.body, u)
}

// placePages gives each page its title and file: the first page is
// README.md; a page under which other pages sit is folder/README.md, any
// other folder/name.md, after the URL's path below the prefix.
func (r *run) placePages(pages []*crawled, sc scope) {
	used := map[string]bool{"": true}
	for i, cr := range pages {
		if i > 0 {
			cr.segs = sc.segments(cr.url)
			if len(cr.segs) == 0 {
				cr.segs = []string{"index"}
			}
			last := cr.segs[len(cr.segs)-1]
			for n := 1; used[strings.Join(cr.segs, "/")]; n++ {
				cr.segs[len(cr.segs)-1] = last + "-" + strconv.Itoa(n)
			}
			used[strings.Join(cr.segs, "/")] = true
		}
		cr.title = cr.page.title
		if cr.title == "" {
			cr.title = path.Base(cr.url.Path)
			if cr.title == "/" || cr.title == "." {
				cr.title = cr.url.Host
			}
		}
	}
	folders := map[string]bool{}
	for _, cr := range pages {
		for k := 1; k < len(cr.segs); k++ {
			folders[strings.Join(cr.segs[:k], "/")] = true
		}
	}
	for _, cr := range pages {
		j := strings.Join(cr.segs, "/")
		switch {
		case j == "":
			cr.path = ReadmePath
		case folders[j]:
			cr.path = j + "/" + ReadmePath
		default:
			cr.path = j + ".md"
		}
	}
}

// wantImage takes images, and untyped bodies whose URL names an image.
func wantImage(mediaType string, u *url.URL) bool {
	if strings.HasPrefix(mediaType, "image/") {
		return true
	}
	switch mediaType {
	case "", "application/octet-stream", "binary/octet-stream":
		return isImageName(u.Path)
	}
	return false
}

// image fetches the image at u once per import and returns its asset path.
func (r *run) image(ctx context.Context, u *url.URL) (string, bool) {
	key := canonical(u).String()
	if p, done := r.fetched[key]; done {
		return p, p != ""
	}
	r.fetched[key] = ""
	r.total++
	d, err := r.get(ctx, u, wantImage)
	if err != nil {
		r.skip(ctx, u, err)
		return "", false
	}
	p := r.assets.claim(path.Base(u.Path), d.contentType)
	r.files[p] = d.body
	r.fetched[key] = p
	r.imported++
	return p, true
}

// inlineImage stores an image given as a base64 data URL as an asset,
// within the import's byte cap.
func (r *run) inlineImage(dataURL string) (string, bool) {
	head, payload, ok := strings.Cut(strings.TrimPrefix(dataURL, "data:"), ",")
	mt, isBase64 := strings.CutSuffix(head, ";base64")
	if !ok || !isBase64 || !strings.HasPrefix(mt, "image/") || int64(len(payload)) > 2*r.left {
		return "", false
	}
	r.total++
	body, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(payload), ""))
	if err != nil || int64(len(body)) > r.left {
		return "", false
	}
	r.left -= int64(len(body))
	p := r.assets.claim("image", mt)
	r.files[p] = body
	r.imported++
	return p, true
}
