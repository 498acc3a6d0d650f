package gitbook

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
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

// pageFile is a page file split into its parts.
type pageFile struct {
	fm       frontMatter
	title    string // text of the "# " line
	hasTitle bool
	body     string
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

// pageFile parses the page file at path once; nil when it is missing.
func (r *reader) pageFile(path string) *pageFile {
	if pf, ok := r.pageFiles[path]; ok {
		return pf
	}
	data, ok := r.content[path]
	if !ok {
		r.pageFiles[path] = nil
		return nil
	}
	pf := &pageFile{}
	text := normalizeNewlines(string(data))
	yamlText, body, found := splitFrontMatter(text)
	if found {
		var warnings []string
		pf.fm, warnings = parseFrontMatter(yamlText)
		for _, w := range warnings {
			r.warn(path, "%s", w)
		}
	}
	pf.title, pf.body, pf.hasTitle = splitTitle(body)
	r.pageFiles[path] = pf
	return pf
}

// documentPage makes the page of the file at path; title is the title
// the table of contents gives it, if any.
func (r *reader) documentPage(path, title string) *Page {
	p := &Page{ID: r.pageID(path), Kind: quire.PageDocument, Path: path}
	pf := r.pageFile(path)
	if pf == nil {
		pf = &pageFile{}
	}
	emoji := ""
	switch {
	case title != "":
		emoji, title = splitEmoji(title)
		if emoji == "" && pf.hasTitle {
			emoji, _ = splitEmoji(pf.title)
		}
	case pf.hasTitle && pf.title != "":
		emoji, title = splitEmoji(pf.title)
	default:
		title = humanize(stemOf(path))
	}
	if emoji == "" {
		emoji = emojiFromFrontMatter(pf.fm.Emoji)
	}
	p.Title, p.Emoji = title, emoji
	p.Slug = pathSlug(path, title)
	if path == r.readme {
		// The landing page is served at the root; its slug is its title's.
		p.Slug = content.Slugify(title)
	}
	fm := pf.fm
	p.Description, p.Icon, p.Hidden = strings.TrimSpace(fm.Description), fm.Icon, fm.Hidden
	p.NoIndex, p.NoRobotsIndex, p.Condition = fm.NoIndex, fm.NoRobotsIndex, fm.Condition
	p.Variables, p.Layout, p.Extra = fm.Variables, fm.Layout, fm.Extra
	if fm.Cover != "" || fm.HasCoverY {
		p.Cover = &quire.PageCover{YPos: fm.CoverY}
		if fm.Cover != "" {
			p.Cover.Ref = r.coverRef(path, fm.Cover)
		}
	}
	r.pageByPath[path] = p
	r.docPages = append(r.docPages, p)
	return p
}

// coverRef resolves the front matter's cover: a URL, or a file relative
// to the page file. What resolves to nothing stays as written, as a URL.
func (r *reader) coverRef(page, target string) *quire.ContentRef {
	if hasScheme(target) {
		return &quire.ContentRef{Kind: document.RefURL, URL: target}
	}
	p, _, _ := splitTarget(target)
	path, exists, ok := r.resolve(dirOf(page), p)
	if ok && exists && !r.isPageFile(path) && path != r.summary {
		return &quire.ContentRef{Kind: document.RefFile, File: r.file(path).ID}
	}
	if target != brokenReference {
		r.warn(page, "cover %q is not a file of the repository", target)
	}
	return &quire.ContentRef{Kind: document.RefURL, URL: target}
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

// pathSlug is the slug a page file's path gives: the file name without
// ".md", or the folder's name for a README.md; the landing README.md at
// the root takes its title's.
func pathSlug(path, title string) string {
	if isReadme(path) {
		if d := dirOf(path); d != "" {
			return content.Slugify(baseOf(d))
		}
		return content.Slugify(title)
	}
	return content.Slugify(stemOf(path))
}

// stemOf returns a file name without its extension.
func stemOf(path string) string {
	b := baseOf(path)
	if i := strings.LastIndexByte(b, '.'); i > 0 {
		return b[:i]
	}
	return b
}

// humanize turns a file or folder name into a title: separators become
// spaces and the first letter is upper case.
func humanize(name string) string {
	s := strings.TrimSpace(strings.NewReplacer("-", " ", "_", " ").Replace(name))
	if s == "" {
		return "Untitled"
	}
	r := []rune(s)
	r[0] = []rune(strings.ToUpper(string(r[0])))[0]
	return string(r)
}

// hasScheme reports whether s starts with a URL scheme such as "https:".
func hasScheme(s string) bool {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := s[j]
		alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !alpha && (j == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// normalizeNewlines turns "\r\n" and lone "\r" line endings into "\n".
func normalizeNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}
