package importer

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"

	"quire/internal/quire"
)

// archiveHost is the host of the URLs that stand for files inside a zip
// while its HTML pages are converted; it can never be fetched.
const archiveHost = "archive.invalid"

// entryKind is what an archive entry becomes.
type entryKind int

const (
	kindAsset    entryKind = iota // a file under .gitbook/assets
	kindMarkdown                  // a Markdown page
	kindHTML                      // an HTML page converted to Markdown
	kindSummary                   // the SUMMARY.md, links rewritten
	kindKeep                      // another .gitbook/ file, kept as it is
)

// entry is one file of the archive.
type entry struct {
	name string // path in the archive, common root folder removed
	kind entryKind
	data []byte
	path string // path in the repository
}

// zipFile imports the zip at u: its Markdown and HTML files as pages in
// the same folders (index and readme files as their folder's README.md),
// every other file as an asset, links between them rewritten. Unsafe
// paths, links, entries expanding beyond the ratio cap or the byte cap and
// more entries than the cap refuse the whole archive.
func (r *run) zipFile(ctx context.Context, u *url.URL) error {
	d, err := r.get(ctx, u, nil)
	if err != nil {
		return r.urlError(ctx, u, err)
	}
	return r.zipArchive(ctx, d.body, redact(u), titleFromURL(u))
}

// zipArchive imports the zip archive body as zipFile says; shown names
// it in errors, and title is the first page's when the archive has no
// README.
func (r *run) zipArchive(ctx context.Context, body []byte, shown, title string) error {
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return quire.Invalid(r.field, "%s is not a valid zip archive", shown)
	}
	entries, err := r.zipEntries(zr, shown)
	if err != nil {
		return err
	}
	r.placeEntries(entries)
	byName := map[string]*entry{}
	folders := map[string]*entry{}
	for _, e := range entries {
		byName[e.name] = e
		if path.Base(e.path) == ReadmePath && (e.kind == kindMarkdown || e.kind == kindHTML) {
			folders[path.Dir(e.name)] = e
		}
	}
	find := func(name string) *entry {
		if e := byName[name]; e != nil {
			return e
		}
		return folders[path.Clean(name)]
	}
	lr := newLinkRewriter()
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		switch e.kind {
		case kindMarkdown, kindSummary:
			text := strings.TrimPrefix(string(e.data), "\xef\xbb\xbf")
			r.files[e.path] = []byte(lr.rewrite(text, func(dest string, _ bool) (string, bool) {
				t, frag, ok := archiveRef(e.name, dest)
				if !ok {
					return "", false
				}
				if target := find(t); target != nil {
					return relPath(e.path, target.path) + frag, true
				}
				return "", false
			}))
		case kindHTML:
			r.files[e.path] = r.archiveHTML(ctx, e, find)
		default:
			r.files[e.path] = e.data
		}
		r.imported++
	}
	if r.files[ReadmePath] == nil {
		r.files[ReadmePath] = []byte("# " + title + "\n")
	}
	return nil
}

// zipEntries checks and reads the files of zr.
func (r *run) zipEntries(zr *zip.Reader, shown string) ([]*entry, error) {
	opts := r.im.opts
	if len(zr.File) > opts.MaxZipFiles {
		return nil, quire.Invalid(r.field, "%s holds %d entries, more than the %d allowed", shown, len(zr.File), opts.MaxZipFiles)
	}
	var files []*zip.File
	var declared uint64
	for _, f := range zr.File {
		if !safeEntryName(f.Name) {
			return nil, quire.Invalid(r.field, "%s: the zip entry %q has an unsafe path", shown, f.Name)
		}
		mode := f.Mode()
		if mode&fs.ModeSymlink != 0 {
			return nil, quire.Invalid(r.field, "%s: the zip entry %q is a symbolic link", shown, f.Name)
		}
		if mode.IsDir() || strings.HasSuffix(f.Name, "/") {
			continue
		}
		if !mode.IsRegular() {
			return nil, quire.Invalid(r.field, "%s: the zip entry %q is not a regular file", shown, f.Name)
		}
		if f.UncompressedSize64 > 1<<20 && f.UncompressedSize64/max(f.CompressedSize64, 1) > uint64(opts.MaxZipRatio) {
			return nil, quire.Invalid(r.field, "%s: the zip entry %q expands more than %d times", shown, f.Name, opts.MaxZipRatio)
		}
		declared += f.UncompressedSize64
		if declared > uint64(r.left) {
			return nil, quire.Invalid(r.field, "%s unpacks to more than the import's limit of %d bytes", shown, opts.MaxBytes)
		}
		if skippedEntry(f.Name) {
			continue
		}
		files = append(files, f)
	}
	root := commonRoot(files)
	entries := make([]*entry, 0, len(files))
	for _, f := range files {
		r.total++
		data, err := r.readEntry(f)
		if err != nil {
			if errors.Is(err, errBudget) {
				return nil, quire.Invalid(r.field, "%s unpacks to more than the import's limit of %d bytes", shown, opts.MaxBytes)
			}
			return nil, quire.Invalid(r.field, "%s is not a valid zip archive: the entry %q is damaged", shown, f.Name)
		}
		entries = append(entries, &entry{name: strings.TrimPrefix(strings.TrimPrefix(f.Name, "./"), root), data: data})
	}
	return entries, nil
}

// readEntry reads one file, refusing more bytes than it declared or than
// the import may still unpack.
func (r *run) readEntry(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, int64(min(f.UncompressedSize64, uint64(r.left)))+1))
	if err != nil {
		return nil, err
	}
	if uint64(len(data)) > f.UncompressedSize64 {
		return nil, errors.New("larger than declared")
	}
	if int64(len(data)) > r.left {
		return nil, errBudget
	}
	r.left -= int64(len(data))
	return data, nil
}

// safeEntryName reports whether an archive path stays inside the archive:
// relative, slash-separated, no "..", no drive letter, no NUL.
func safeEntryName(name string) bool {
	if name == "" || strings.HasPrefix(name, "/") || strings.ContainsAny(name, "\\\x00") ||
		len(name) >= 2 && name[1] == ':' {
		return false
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == ".." {
			return false
		}
	}
	return true
}

// skippedEntry reports whether an archive file is left out: operating
// system litter and hidden files, except GitBook's own .gitbook folder.
func skippedEntry(name string) bool {
	for _, seg := range strings.Split(strings.TrimPrefix(name, "./"), "/") {
		if seg == "__MACOSX" || seg == ".gitbook.yaml" || strings.HasPrefix(seg, ".") && seg != ".gitbook" && seg != "." {
			return true
		}
	}
	return false
}

// commonRoot is the one folder (with its slash) every file sits in, as
// when a folder was zipped, or "".
func commonRoot(files []*zip.File) string {
	root := ""
	for i, f := range files {
		first, _, ok := strings.Cut(strings.TrimPrefix(f.Name, "./"), "/")
		if !ok || first == ".gitbook" || (i > 0 && first+"/" != root) {
			return ""
		}
		root = first + "/"
	}
	return root
}

// placeEntries decides what each entry becomes and where it goes.
func (r *run) placeEntries(entries []*entry) {
	taken := map[string]bool{}
	claim := func(p string) string {
		ext := path.Ext(p)
		stem := strings.TrimSuffix(p, ext)
		for n := 1; taken[strings.ToLower(p)]; n++ {
			p = stem + "-" + strconv.Itoa(n) + ext
		}
		taken[strings.ToLower(p)] = true
		return p
	}
	for _, e := range entries {
		lower := strings.ToLower(e.name)
		switch ext := path.Ext(lower); {
		case lower == "summary.md":
			e.kind = kindSummary
		case strings.HasPrefix(e.name, AssetsDir+"/"):
			e.kind = kindAsset
		case strings.HasPrefix(e.name, ".gitbook/"):
			e.kind = kindKeep
		case ext == ".md" || ext == ".markdown" || ext == ".mdown":
			e.kind = kindMarkdown
		case ext == ".html" || ext == ".htm" || ext == ".xhtml":
			e.kind = kindHTML
		default:
			e.kind = kindAsset
		}
	}
	// Fixed names first, then folder pages (readme before index), then the
	// rest, each group in archive order.
	rank := func(e *entry) int {
		stem := strings.ToLower(strings.TrimSuffix(path.Base(e.name), path.Ext(e.name)))
		switch {
		case e.kind == kindSummary || e.kind == kindKeep:
			return 0
		case e.kind == kindAsset && strings.HasPrefix(e.name, AssetsDir+"/"):
			return 1
		case e.kind != kindAsset && stem == "readme":
			return 2
		case e.kind != kindAsset && stem == "index":
			return 3
		}
		return 4
	}
	order := append([]*entry(nil), entries...)
	sort.SliceStable(order, func(i, j int) bool { return rank(order[i]) < rank(order[j]) })
	for _, e := range order {
		dir := path.Dir(e.name)
		switch rank(e) {
		case 0:
			e.path = claim(e.name)
		case 1:
			if r.assets.reserve(path.Base(e.name)) {
				e.path = claim(e.name)
			} else {
				e.path = r.assets.claim(path.Base(e.name), "")
			}
		case 2, 3:
			if p := path.Join(dir, ReadmePath); !taken[strings.ToLower(p)] {
				e.path = claim(p)
				continue
			}
			fallthrough
		default:
			if e.kind == kindAsset {
				e.path = r.assets.claim(path.Base(e.name), "")
				continue
			}
			e.path = claim(strings.TrimSuffix(e.name, path.Ext(e.name)) + ".md")
		}
	}
}

// archiveRef resolves a link destination written in the archive file
// from to the archive path it names and its fragment ("#x" or "").
func archiveRef(from, dest string) (name, frag string, ok bool) {
	dest = strings.TrimSpace(dest)
	if dest == "" || strings.HasPrefix(dest, "#") || strings.HasPrefix(dest, "//") {
		return "", "", false
	}
	u, err := url.Parse(dest)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" {
		return "", "", false
	}
	p := u.Path
	if strings.HasPrefix(p, "/") {
		p = strings.TrimPrefix(path.Clean(p), "/")
	} else {
		p = path.Join(path.Dir(from), p)
	}
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", "", false
	}
	if u.Fragment != "" {
		frag = "#" + u.EscapedFragment()
	}
	return p, frag, true
}

// archiveHTML converts one HTML page of the archive, its links to other
// pages and files of the archive rewritten.
func (r *run) archiveHTML(ctx context.Context, e *entry, find func(string) *entry) []byte {
	base := &url.URL{Scheme: "http", Host: archiveHost, Path: "/" + e.name}
	title := strings.TrimSuffix(path.Base(e.name), path.Ext(e.name))
	p, err := parseHTML(e.data, base)
	if err != nil {
		return []byte("# " + title + "\n")
	}
	if p.title != "" {
		title = p.title
	}
	inArchive := func(u *url.URL) (string, bool) {
		if u.Host != archiveHost {
			return "", false
		}
		if t := find(strings.TrimPrefix(path.Clean(u.Path), "/")); t != nil {
			return t.path, true
		}
		return "", false
	}
	md, err := p.toMarkdown(ctx, refs{self: e.path, page: inArchive, image: inArchive, local: archiveHost, inline: r.inlineImage}, title)
	if err != nil {
		r.skip(ctx, base, err)
		return []byte("# " + title + "\n")
	}
	return md
}
