package gitbook

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"quire/internal/document"
)

// Read imports the files of a project directory: the configuration, the
// page tree, the page files and the files they use. Input it cannot make
// sense of gives an error wrapping ErrInvalid, most often a *FileError
// naming the file; what it can skip or leave unresolved is told in
// Space.Warnings.
func Read(files Files, ids IDs) (*Space, error) {
	r, err := newReader(files, ids)
	if err != nil {
		return nil, err
	}
	if err := r.buildTree(); err != nil {
		return nil, err
	}
	r.uniqueSlugs(r.sp.Pages, "")
	if err := r.convertBodies(); err != nil {
		return nil, err
	}
	r.listUnlisted()
	r.checkRedirects()
	sort.Slice(r.sp.Files, func(i, j int) bool { return r.sp.Files[i].Path < r.sp.Files[j].Path })
	return r.sp, nil
}

// reader holds the state of one Read.
type reader struct {
	ids     IDs
	sp      *Space
	content map[string][]byte // files under the root, by path relative to it
	summary string            // table of contents, relative to the root
	readme  string            // landing page, relative to the root

	pageFiles  map[string]*pageFile
	pageByPath map[string]*Page
	pageIDs    map[string]string // page file path → id
	docPages   []*Page           // document pages with a file, in tree order
	fileByPath map[string]*File
	idKeys     map[string]string // id → the key it was given for
	linkSeen   map[string]int
	computed   int
	warned     map[string]bool
	err        error // the first id given twice
}

func newReader(files Files, ids IDs) (*reader, error) {
	r := &reader{
		ids: ids, sp: &Space{},
		content:   make(map[string][]byte, len(files)),
		pageFiles: map[string]*pageFile{}, pageByPath: map[string]*Page{}, pageIDs: map[string]string{},
		fileByPath: map[string]*File{}, idKeys: map[string]string{}, linkSeen: map[string]int{},
		warned: map[string]bool{},
	}
	clean := make(map[string][]byte, len(files))
	for name, data := range files {
		c, ok := cleanPath(name)
		if !ok {
			return nil, fileErr(name, "the path leaves the project directory")
		}
		if c != "" {
			clean[c] = data
		}
	}
	cfg, redirects, err := readConfig(clean[configFile])
	_, hasConfig := clean[configFile]
	cfg.Absent = !hasConfig
	if err != nil {
		return nil, err
	}
	r.sp.Config, r.sp.Redirects = cfg, redirects
	r.summary = orDefault(cfg.Summary, defaultSummary)
	r.readme = orDefault(cfg.Readme, defaultReadme)
	for name, data := range clean {
		if !underDir(name, cfg.Root) || name == ".git" || strings.HasPrefix(name, ".git/") {
			continue
		}
		rel := name
		if cfg.Root != "" {
			rel = name[len(cfg.Root)+1:]
		}
		r.content[rel] = data
	}
	assets := make([]string, 0)
	for rel := range r.content {
		if strings.HasPrefix(rel, assetsDir+"/") {
			assets = append(assets, rel)
		}
	}
	sort.Strings(assets)
	for _, rel := range assets {
		r.file(rel)
	}
	return r, r.err
}

// contentPath returns a path relative to the root as a path relative to
// the project directory, for messages.
func (r *reader) contentPath(rel string) string {
	if r.sp.Config.Root == "" {
		return rel
	}
	return r.sp.Config.Root + "/" + rel
}

// warn records a warning about a file, once.
func (r *reader) warn(rel, format string, args ...any) {
	msg := r.contentPath(rel) + ": " + fmt.Sprintf(format, args...)
	if !r.warned[msg] {
		r.warned[msg] = true
		r.sp.Warnings = append(r.sp.Warnings, msg)
	}
}

// id asks for the id of a key and checks it was not given before.
func (r *reader) id(key string, get func(string) string) string {
	id := get(key)
	if id == "" && r.err == nil {
		r.err = fileErr(r.contentPath(key), "no id given")
	}
	if prev, dup := r.idKeys[id]; dup && r.err == nil {
		r.err = fileErr(r.contentPath(key), "id %q is also given to %q", id, prev)
	}
	r.idKeys[id] = key
	return id
}

// pageID returns the id of the page file at path, asking once.
func (r *reader) pageID(path string) string {
	if id, ok := r.pageIDs[path]; ok {
		return id
	}
	id := r.id(path, r.ids.PageID)
	r.pageIDs[path] = id
	return id
}

// groupID asks for the id of a group: its key is its slug and "/", then
// "#1", "#2"… for later groups of the same slug.
func (r *reader) groupID(slug string) string {
	key := slug + "/"
	n := r.linkSeen[key]
	r.linkSeen[key] = n + 1
	if n > 0 {
		key += "#" + strconv.Itoa(n)
	}
	return r.id(key, r.ids.PageID)
}

// file returns the file at path, adding it to the space on first use.
func (r *reader) file(path string) *File {
	if f := r.fileByPath[path]; f != nil {
		return f
	}
	data := r.content[path]
	name := baseOf(path)
	f := &File{ID: r.id(path, r.ids.FileID), Name: name, Path: path, ContentType: contentType(name, data), Data: data}
	r.fileByPath[path] = f
	r.sp.Files = append(r.sp.Files, f)
	return f
}

// resolve turns a link path, relative to the folder dir, into a path
// relative to the root. A path ending in "/" (or "." or "./") means the
// folder's README.md, and a folder with a README.md may be named without
// the slash. The path is tried %-decoded first, then as written. ok is
// false for a path leaving the root.
func (r *reader) resolve(dir, p string) (path string, exists, ok bool) {
	try := func(p string) (string, bool, bool) {
		if p == "." || p == "./" || strings.HasSuffix(p, "/") {
			p = strings.TrimSuffix(p, "/") + "/" + readmeName
		}
		c, ok := joinPath(dir, p)
		if !ok || c == "" {
			return "", false, false
		}
		if _, found := r.content[c]; found {
			return c, true, true
		}
		if _, found := r.content[c+"/"+readmeName]; found {
			return c + "/" + readmeName, true, true
		}
		return c, false, true
	}
	path, exists, ok = try(unescapePath(p))
	if !exists {
		if p2, e2, ok2 := try(p); e2 {
			return p2, e2, ok2
		}
	}
	return path, exists, ok
}

// isPageFile reports whether a path is a Markdown page file: not under
// .gitbook and not the table of contents.
func (r *reader) isPageFile(path string) bool {
	return isMarkdown(path) && !strings.HasPrefix(path, gitbookDir+"/") && path != r.summary
}

// buildTree builds the page tree from the table of contents, or from
// the folders when there is none, and puts the landing page first.
func (r *reader) buildTree() error {
	if data, ok := r.content[r.summary]; ok {
		if err := r.treeFromSummary(normalizeNewlines(string(data))); err != nil {
			return err
		}
	} else if err := r.treeFromFolders(); err != nil {
		return err
	}
	if r.pageByPath[r.readme] == nil {
		if _, ok := r.content[r.readme]; ok {
			r.sp.Pages = append([]*Page{r.documentPage(r.readme, "")}, r.sp.Pages...)
			// The landing page's body is converted first, like its place.
			n := len(r.docPages)
			r.docPages = append([]*Page{r.docPages[n-1]}, r.docPages[:n-1]...)
		} else {
			r.warn(r.readme, "the landing page is missing")
		}
	}
	return r.err
}

// uniqueSlugs makes the slugs of siblings unique, adding "-1", "-2"…
func (r *reader) uniqueSlugs(pages []*Page, parent string) {
	used := make(map[string]bool, len(pages))
	for _, p := range pages {
		if p.Slug != "" {
			if used[p.Slug] {
				base := p.Slug
				for n := 1; used[p.Slug]; n++ {
					p.Slug = base + "-" + strconv.Itoa(n)
				}
				where := p.Path
				if where == "" {
					where = r.summary
				}
				r.warn(where, "slug %q is taken by a sibling page; using %q", base, p.Slug)
			}
			used[p.Slug] = true
		}
		r.uniqueSlugs(p.Children, p.Slug)
	}
}

// convertBodies converts the body of every document page.
func (r *reader) convertBodies() error {
	for _, p := range r.docPages {
		pf := r.pageFile(p.Path)
		if pf == nil {
			p.Document = document.New()
			continue
		}
		res := &importResolver{r: r, dir: dirOf(p.Path), page: p}
		doc, err := document.FromMarkdown(pf.body, document.HeadingOffset(1), document.WithLinkResolver(res))
		if err != nil {
			return &FileError{Path: r.contentPath(p.Path), Msg: err.Error(), Err: err}
		}
		p.Document = doc
	}
	return r.err
}

// listUnlisted records the page files the tree does not reach.
func (r *reader) listUnlisted() {
	for path := range r.content {
		if r.isPageFile(path) && r.pageByPath[path] == nil {
			r.sp.Unlisted = append(r.sp.Unlisted, path)
		}
	}
	sort.Strings(r.sp.Unlisted)
}

// checkRedirects warns of redirects to files that are not pages.
func (r *reader) checkRedirects() {
	froms := make([]string, 0, len(r.sp.Redirects))
	for from := range r.sp.Redirects {
		froms = append(froms, from)
	}
	sort.Strings(froms)
	for _, from := range froms {
		if to := r.sp.Redirects[from]; r.pageByPath[to] == nil {
			r.sp.Warnings = append(r.sp.Warnings, fmt.Sprintf("%s: redirect %q leads to %s, which is not a page", configFile, from, to))
		}
	}
}
