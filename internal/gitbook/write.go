package gitbook

import (
	"fmt"
	"strconv"
	"strings"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
)

// Write exports a space: .gitbook.yaml, the table of contents, one page
// file per document page (front matter, "# " title, body) and the files
// under .gitbook/assets, all under Config.Root. Pages keep their Path
// when it is still free and agrees with their slug; the others are
// placed by slug. Top-level pages after the first group are written in
// that group, as the format cannot say otherwise.
func Write(sp *Space) (Files, error) {
	if sp == nil {
		return Files{}, nil
	}
	w, err := plan(sp)
	if err != nil {
		return nil, err
	}
	if err := w.writePages(sp.Pages); err != nil {
		return nil, err
	}
	w.put(w.summary, []byte(w.renderSummary()))
	redirects := make(map[string]string, len(sp.Redirects))
	for from, to := range sp.Redirects {
		if moved, ok := w.oldPath[to]; ok {
			to = moved
		}
		redirects[from] = to
	}
	c := Config{Root: w.root, Readme: orNone(sp.Config.Readme, defaultReadme),
		Summary: orNone(sp.Config.Summary, defaultSummary), Source: sp.Config.Source}
	if sp.Config.Absent && c.Source == "" && c == (Config{}) && len(redirects) == 0 {
		return w.out, nil
	}
	cfg, err := writeConfig(c, redirects)
	if err != nil {
		return nil, err
	}
	w.out[configFile] = cfg
	return w.out, nil
}

// plan decides where every page and file of sp goes, without writing
// anything.
func plan(sp *Space) (*writer, error) {
	root, ok := cleanPath(sp.Config.Root)
	if !ok {
		return nil, fmt.Errorf("config root %q leaves the project directory", sp.Config.Root)
	}
	w := &writer{
		sp: sp, root: root, out: Files{},
		summary:  orDefault(sp.Config.Summary, defaultSummary),
		readme:   orDefault(sp.Config.Readme, defaultReadme),
		used:     map[string]bool{},
		pages:    map[string]*Page{},
		pagePath: map[*Page]string{},
		filePath: map[string]string{},
		oldPath:  map[string]string{},
		listed:   map[*Page]bool{},
	}
	for _, p := range []string{w.summary, w.readme} {
		if c, ok := cleanPath(p); !ok || c == "" || !isMarkdown(c) {
			return nil, fmt.Errorf("structure file %q must be a Markdown file under the root", p)
		}
	}
	if err := w.index(sp.Pages, 0); err != nil {
		return nil, err
	}
	w.claim(w.summary)
	if root == "" {
		w.claim(configFile)
	}
	if err := w.placeFiles(); err != nil {
		return nil, err
	}
	w.placePages()
	return w, nil
}

// Paths returns where Write puts the file of each document page of sp,
// by page id, relative to the content root as Page.Path is. A repository
// written by Write and read back gives its pages these paths.
func Paths(sp *Space) (map[string]string, error) {
	if sp == nil {
		return map[string]string{}, nil
	}
	w, err := plan(sp)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(w.pagePath))
	for p, rel := range w.pagePath {
		if p.ID != "" {
			out[p.ID] = rel
		}
	}
	return out, nil
}

// writer holds the state of one Write.
type writer struct {
	sp       *Space
	root     string
	out      Files
	summary  string
	readme   string
	landing  *Page
	used     map[string]bool   // lower-case paths taken, relative to the root
	pages    map[string]*Page  // by id
	pagePath map[*Page]string  // document page → its file, relative to the root
	filePath map[string]string // file id → its path, relative to the root
	oldPath  map[string]string // a page's Path as read → where it is written
	listed   map[*Page]bool    // document pages already in the table of contents
}

// index checks the tree (no nil page, known kinds, ids unique, bounded
// depth) and finds the landing page: the page read from the landing page
// file, or else the first document page.
func (w *writer) index(pages []*Page, depth int) error {
	if depth >= maxDepth {
		return fmt.Errorf("pages nest more than %d levels", maxDepth)
	}
	for _, p := range pages {
		if p == nil {
			return fmt.Errorf("nil page in the tree")
		}
		switch p.Kind {
		case quire.PageDocument, quire.PageGroup, quire.PageLink, quire.PageComputed:
		default:
			return fmt.Errorf("page %q: unknown kind %q", p.ID, p.Kind)
		}
		if p.ID != "" {
			if w.pages[p.ID] != nil {
				return fmt.Errorf("page id %q is used twice", p.ID)
			}
			w.pages[p.ID] = p
		}
		if p.Kind == quire.PageDocument && !fileless(p) && (w.landing == nil || p.Path == w.readme && w.landing.Path != w.readme) {
			w.landing = p
		}
		if err := w.index(p.Children, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// claim takes a path if it is free.
func (w *writer) claim(path string) bool {
	k := strings.ToLower(path)
	if w.used[k] {
		return false
	}
	w.used[k] = true
	return true
}

// put stores an output file under the root.
func (w *writer) put(rel string, data []byte) {
	if w.root != "" {
		rel = w.root + "/" + rel
	}
	w.out[rel] = data
}

// placeFiles decides where each file goes: its Path when it is free and
// not a page file, else .gitbook/assets/<name>, with " (1)", " (2)"…
// when the name is taken.
func (w *writer) placeFiles() error {
	for _, f := range w.sp.Files {
		if f == nil {
			return fmt.Errorf("nil file in the space")
		}
		if _, dup := w.filePath[f.ID]; dup && f.ID != "" {
			return fmt.Errorf("file id %q is used twice", f.ID)
		}
		path := ""
		if c, ok := cleanPath(f.Path); ok && c != "" && !w.isPagePath(c) && w.claim(c) {
			path = c
		} else {
			name := assetName(f)
			stem, ext := name, ""
			if i := strings.LastIndexByte(name, '.'); i > 0 {
				stem, ext = name[:i], name[i:]
			}
			path = assetsDir + "/" + name
			for n := 1; !w.claim(path); n++ {
				path = assetsDir + "/" + stem + " (" + strconv.Itoa(n) + ")" + ext
			}
		}
		w.filePath[f.ID] = path
		w.put(path, f.Data)
	}
	return nil
}

// isPagePath reports whether a path would read back as a page file.
func (w *writer) isPagePath(path string) bool {
	return isMarkdown(path) && !strings.HasPrefix(path, gitbookDir+"/")
}

// assetName is a file's name made safe as one path element.
func assetName(f *File) string {
	name := strings.TrimSpace(strings.NewReplacer("/", "-", "\\", "-", "\x00", "").Replace(f.Name))
	if name == "" || name == "." || name == ".." {
		name = strings.NewReplacer("/", "-", "\\", "-", "\x00", "").Replace(f.ID)
	}
	if name == "" || name == "." || name == ".." {
		name = "file"
	}
	return name
}

// placePages gives every document page its file: first the landing page
// and the pages whose Path can be kept, then the others by slug.
func (w *writer) placePages() {
	if w.landing != nil {
		w.claim(w.readme)
		w.setPath(w.landing, w.readme)
	}
	w.keepPaths(w.sp.Pages)
	w.derivePaths(w.sp.Pages, "")
}

func (w *writer) setPath(p *Page, path string) {
	w.pagePath[p] = path
	if p.Path != "" {
		w.oldPath[p.Path] = path
	}
}

// keepPaths keeps the Path of pages where it is free and gives back the
// same slug on the next Read.
func (w *writer) keepPaths(pages []*Page) {
	for _, p := range pages {
		if p.Kind == quire.PageDocument && p != w.landing && p.Path != "" {
			c, ok := cleanPath(p.Path)
			if ok && c == p.Path && w.isPagePath(c) && c != w.readme &&
				pathSlug(c, p.Title) == slugOf(p) && !strings.EqualFold(c, readmeName) && w.claim(c) {
				w.setPath(p, c)
			}
		}
		w.keepPaths(p.Children)
	}
}

// slugOf returns a page's slug, or its title's when it has none.
func slugOf(p *Page) string {
	if p.Slug != "" {
		return p.Slug
	}
	return content.Slugify(p.Title)
}

// derivePaths places the pages without a file yet under folder: a page
// with children as <slug>/README.md, a leaf as <slug>.md; children go in
// the folder of their parent's file, pages of a group under its slug.
func (w *writer) derivePaths(pages []*Page, folder string) {
	for _, p := range pages {
		childFolder := folder
		switch p.Kind {
		case quire.PageGroup:
			childFolder = joinDir(folder, slugOf(p))
		case quire.PageDocument:
			if fileless(p) {
				childFolder = joinDir(folder, slugOf(p))
				break
			}
			path, placed := w.pagePath[p]
			if !placed {
				path = w.newPath(p, folder)
				w.setPath(p, path)
			}
			switch {
			case p == w.landing:
				childFolder = joinDir(folder, slugOf(p))
			case isReadme(path):
				childFolder = dirOf(path)
			default:
				childFolder = joinDir(dirOf(path), stemOf(path))
			}
		}
		w.derivePaths(p.Children, childFolder)
	}
}

// newPath finds a free path for a page in folder from its slug.
func (w *writer) newPath(p *Page, folder string) string {
	slug := strings.Trim(strings.NewReplacer("/", "-", "\\", "-").Replace(slugOf(p)), ".")
	if slug == "" {
		slug = "untitled"
	}
	for n := 0; ; n++ {
		s := slug
		if n > 0 {
			s = slug + "-" + strconv.Itoa(n)
		}
		if strings.EqualFold(s, "readme") {
			continue
		}
		path := joinDir(folder, s) + mdExt
		if len(p.Children) > 0 {
			path = joinDir(joinDir(folder, s), readmeName)
		}
		if w.claim(path) {
			return path
		}
	}
}

// writePages renders the file of every document page.
func (w *writer) writePages(pages []*Page) error {
	for _, p := range pages {
		if p.Kind == quire.PageDocument && w.pagePath[p] != "" {
			data, err := w.renderPage(p)
			if err != nil {
				return fmt.Errorf("page %q: %w", p.ID, err)
			}
			w.put(w.pagePath[p], data)
		}
		if err := w.writePages(p.Children); err != nil {
			return err
		}
	}
	return nil
}

// renderPage renders a page file.
func (w *writer) renderPage(p *Page) ([]byte, error) {
	res := &exportResolver{w: w, dir: dirOf(w.pagePath[p])}
	cover := ""
	if p.Cover != nil && p.Cover.Ref != nil {
		cover = res.target(*p.Cover.Ref)
	}
	fm, err := writeFrontMatter(p, cover)
	if err != nil {
		return nil, err
	}
	body, err := document.ToMarkdown(p.Document, document.HeadingOffset(1), document.WithLinkResolver(res))
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.Grow(len(fm) + len(p.Title) + len(body) + 8)
	if fm != "" {
		// GitBook leaves a blank line between the front matter and the title.
		b.WriteString(fm + "\n")
	}
	b.WriteString("# " + escapeHeading(titleWithEmoji(p.Title, p.Emoji)) + "\n")
	if body != "" {
		b.WriteString("\n" + body)
	}
	return []byte(b.String()), nil
}

// fileless reports whether a document page is written as a list item of
// the table of contents without a file: one read that way, still empty
// and without front matter.
func fileless(p *Page) bool {
	if p.Kind != quire.PageDocument || p.Listing == "" || p.Path != "" {
		return false
	}
	if p.Document != nil && len(p.Document.Nodes) > 0 {
		return false
	}
	fm, err := writeFrontMatter(&Page{Description: p.Description, Icon: p.Icon, Hidden: p.Hidden, NoIndex: p.NoIndex,
		NoRobotsIndex: p.NoRobotsIndex, Condition: p.Condition, Variables: p.Variables, Layout: p.Layout,
		Cover: p.Cover, Extra: p.Extra}, "")
	return err == nil && fm == "" && p.Cover == nil
}

// orNone returns s, or "" when s is the default def.
func orNone(s, def string) string {
	if s == def {
		return ""
	}
	return s
}
