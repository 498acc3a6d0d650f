package service

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io"
	"mime"
	"net/http"
	"path"
	"reflect"
	"strconv"
	"time"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/gitbook"
	"quire/internal/quire"
)

// knownPaths gives pages and files of an imported repository the ids they
// had at the same path in the space, so that comments and links to them
// survive a sync; new paths get new ids, one per path.
type knownPaths struct {
	pages    map[string]*quire.RevisionPage // by Git path
	files    map[string]*quire.File         // by Git path
	byPageID map[string]*quire.RevisionPage
	byFileID map[string]*quire.File
	minted   map[string]string      // "p:"/"f:" + path → new id
	oids     map[string]*quire.File // Git object id and name → file, built on first use
}

// newKnownPaths indexes the pages and files of snap by the keys an import
// of the repository an export of snap writes gives them (see gitbook.IDs):
// a page's Git path, or the path an export would give it; a group's slug
// and "/"; an external link's target and its count.
func newKnownPaths(ctx context.Context, snap *content.Snapshot) (*knownPaths, error) {
	k := &knownPaths{pages: map[string]*quire.RevisionPage{}, files: map[string]*quire.File{},
		byPageID: map[string]*quire.RevisionPage{}, byFileID: map[string]*quire.File{}, minted: map[string]string{}}
	nodes, err := snap.Tree(ctx)
	if err != nil {
		return nil, err
	}
	files, err := snap.Files(ctx)
	if err != nil {
		return nil, err
	}
	// Where an export would write each page, from the tree alone.
	outline := &gitbook.Space{Pages: outlinePages(nodes)}
	for _, f := range files {
		gf := &gitbook.File{ID: f.ID, Name: f.Name}
		if f.Git != nil {
			gf.Path = f.Git.Path
		}
		outline.Files = append(outline.Files, gf)
	}
	placed, err := gitbook.Paths(outline)
	if err != nil {
		return nil, err
	}
	links := map[string]int{}
	var walk func(nodes []*content.TreeNode)
	walk = func(nodes []*content.TreeNode) {
		for _, n := range nodes {
			p := n.Page
			k.byPageID[p.ID] = p
			switch {
			case p.Git != nil && p.Git.Path != "":
				k.pages[p.Git.Path] = p
			case p.Type == quire.PageGroup:
				k.pages[p.Slug+"/"] = p
			case p.GitListing != "":
				key := "listed:" + p.Title
				k.pages[key+"#"+strconv.Itoa(links[key])] = p
				links[key]++
				if placed[p.ID] != "" {
					// Given content since, it is written to a file.
					k.pages[placed[p.ID]] = p
				}
			case p.Type == quire.PageLink && p.Href != "":
				key := "link:" + p.Href
				k.pages[key+"#"+strconv.Itoa(links[key])] = p
				links[key]++
			case placed[p.ID] != "":
				k.pages[placed[p.ID]] = p
			}
			walk(n.Children)
		}
	}
	walk(nodes)
	for _, f := range files {
		k.byFileID[f.ID] = f
		if f.Git != nil && f.Git.Path != "" {
			k.files[f.Git.Path] = f
		} else {
			k.files[".gitbook/assets/"+f.Name] = f
		}
	}
	return k, nil
}

// outlinePages is the page tree of nodes without documents: enough to
// know where an export puts each page.
func outlinePages(nodes []*content.TreeNode) []*gitbook.Page {
	out := make([]*gitbook.Page, 0, len(nodes))
	for _, n := range nodes {
		rp := n.Page
		p := &gitbook.Page{ID: rp.ID, Kind: rp.Type, Title: rp.Title, Slug: rp.Slug, Href: rp.Href, Target: rp.Target,
			Listing: rp.GitListing, Children: outlinePages(n.Children)}
		if rp.Git != nil {
			p.Path = rp.Git.Path
		}
		out = append(out, p)
	}
	return out
}

// PageID implements gitbook.IDs.
func (k *knownPaths) PageID(p string) string {
	if old, ok := k.pages[p]; ok {
		return old.ID
	}
	return k.mint("p:" + p)
}

// FileID implements gitbook.IDs.
func (k *knownPaths) FileID(p string) string {
	if old, ok := k.files[p]; ok {
		return old.ID
	}
	return k.mint("f:" + p)
}

// mint returns the new id of a path, the same every time it is asked.
func (k *knownPaths) mint(key string) string {
	if id, ok := k.minted[key]; ok {
		return id
	}
	id := quire.NewID()
	k.minted[key] = id
	return id
}

// gitBlobOID is the object id Git gives a file's bytes.
func gitBlobOID(b []byte) string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(b)) + "\x00"))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// importTree writes an imported repository's tree into ed, an edit
// started from an empty revision: every page and file, in the
// repository's order, keeping the ids, times and block keys of those
// already in the space at the same path when unchanged. src gives the
// files' bytes and Git object ids; prog, when not nil, is told how many
// files are stored.
func (s *Service) importTree(ctx context.Context, ed *content.Edit, old *content.Snapshot, known *knownPaths, src fileSource, tree *gitbook.Space, prog *gitProgress) error {
	total := int64(len(tree.Files))
	for i, f := range tree.Files {
		if err := s.importFile(ctx, ed, known, src, f); err != nil {
			return err
		}
		prog.stored(ctx, int64(i+1), total)
	}
	var put func(parent string, pages []*gitbook.Page) error
	put = func(parent string, pages []*gitbook.Page) error {
		for _, p := range pages {
			if err := s.importPage(ctx, ed, old, known, src, parent, p); err != nil {
				return err
			}
			if err := put(p.ID, p.Children); err != nil {
				return err
			}
		}
		return nil
	}
	return put("", tree.Pages)
}

// importPage adds one page of an imported tree under parent.
func (s *Service) importPage(ctx context.Context, ed *content.Edit, old *content.Snapshot, known *knownPaths, src fileSource, parent string, p *gitbook.Page) error {
	rp := &quire.RevisionPage{ID: p.ID, Type: p.Kind, Title: p.Title, Slug: p.Slug, Description: p.Description,
		Emoji: p.Emoji, Icon: p.Icon, Hidden: p.Hidden, NoIndex: p.NoIndex, NoRobotsIndex: p.NoRobotsIndex,
		Condition: p.Condition, Variables: p.Variables, Layout: p.Layout, Cover: p.Cover, Href: p.Href,
		Target: p.Target, Computed: p.Computed, Parent: parent, GitFrontMatter: p.FrontMatter, GitListing: p.Listing}
	if rp.Title == "" {
		rp.Title = "Untitled"
	}
	if p.Path != "" {
		rp.Git = &quire.GitBlob{OID: src.oid(p.Path, nil), Path: p.Path}
	}
	prev := known.byPageID[p.ID]
	var doc []byte
	if p.Kind == quire.PageDocument {
		if rp.Layout == nil {
			l := quire.DefaultPageLayout()
			rp.Layout = &l
		}
		d := p.Document
		if d == nil {
			d = document.New()
		}
		if prev != nil && prev.Document != "" {
			if b, err := old.Document(ctx, prev); err == nil {
				if od, err := document.ParseStored(b); err == nil {
					document.ReuseKeys(od, d)
				}
			}
		}
		b, err := d.MarshalJSON()
		if err != nil {
			return fmt.Errorf("git import: encode page %s: %w", p.Path, err)
		}
		doc = b
	}
	if prev != nil {
		rp.CreatedAt = prev.CreatedAt
		if samePage(prev, rp, doc, ed) {
			rp.UpdatedAt = prev.UpdatedAt
		}
	}
	if err := ed.InsertPage(ctx, rp, doc, nil); err != nil {
		if c := quire.ErrorCode(err); c == quire.ECONFLICT || c == quire.EINVALID {
			return quire.Invalid("repository", "%s: %s", pageLabel(p), err.Error())
		}
		return err
	}
	return nil
}

// pageLabel names a page of an imported tree in an error.
func pageLabel(p *gitbook.Page) string {
	if p.Path != "" {
		return p.Path
	}
	return strconv.Quote(p.Title)
}

// samePage reports whether an imported page is what the space already
// has, but for its place in the tree: then it keeps its update time.
func samePage(prev, next *quire.RevisionPage, doc []byte, ed *content.Edit) bool {
	if doc != nil && prev.Document != ed.PutObject(doc) {
		return false
	}
	a, b := *prev, *next
	for _, p := range []*quire.RevisionPage{&a, &b} {
		p.Parent, p.Position, p.Document, p.Children = "", "", "", ""
		p.CreatedAt, p.UpdatedAt = prev.CreatedAt, prev.UpdatedAt
	}
	if b.Slug == "" {
		b.Slug = a.Slug
	}
	return reflect.DeepEqual(a, b)
}

// importFile adds one file of an imported tree. A file the space holds
// already with the same Git object id and name (at the same path, or
// moved) keeps its stored bytes, unread; any other is stored, streamed
// from src when src did not read it into memory.
func (s *Service) importFile(ctx context.Context, ed *content.Edit, known *knownPaths, src fileSource, f *gitbook.File) error {
	oid := src.oid(f.Path, f.Data)
	prev := known.byFileID[f.ID]
	if prev != nil && prev.Git != nil && prev.Git.OID == oid && prev.Name == f.Name {
		kept := *prev
		return ed.PutFile(ctx, &kept)
	}
	if same := known.byOID(oid, f.Name); same != nil {
		moved := *same
		moved.ID, moved.Git = f.ID, &quire.GitBlob{OID: oid, Path: f.Path}
		moved.CreatedAt = time.Time{}
		if prev != nil {
			moved.CreatedAt = prev.CreatedAt
		}
		return ed.PutFile(ctx, &moved)
	}
	body, size, err := src.open(f.Path, f.Data)
	if err != nil {
		return err
	}
	defer body.Close()
	head := &prefix{max: imageHeadLen}
	key, size, err := s.blobs.Put(ctx, io.TeeReader(body, head), size)
	if err != nil {
		return err
	}
	ct := f.ContentType
	if ct == "" {
		ct = mime.TypeByExtension(path.Ext(f.Name))
	}
	if ct == "" {
		ct = http.DetectContentType(head.Bytes())
	}
	qf := &quire.File{ID: f.ID, Name: f.Name, ContentType: ct, Size: size, Blob: key,
		Git: &quire.GitBlob{OID: oid, Path: f.Path}}
	if prev != nil {
		qf.CreatedAt = prev.CreatedAt
	}
	if w, h, ok := imageSize(head.Bytes()); ok {
		qf.Width, qf.Height = w, h
	}
	return ed.PutFile(ctx, qf)
}

// imageHeadLen is how much of an imported file is kept to read an
// image's dimensions from (JPEG metadata may come before them).
const imageHeadLen = 256 << 10

// fileSource gives an import the files of a repository, by paths
// relative to the content root.
type fileSource interface {
	// oid is the Git object id of a file, given the bytes gitbook.Read
	// saw of it, if any.
	oid(rel string, seen []byte) string
	// open streams a file's bytes, given the bytes gitbook.Read saw of
	// it, and returns its size.
	open(rel string, seen []byte) (io.ReadCloser, int64, error)
}

// memorySource is a repository held in memory, by paths relative to the
// content root.
type memorySource map[string][]byte

// oid implements fileSource.
func (m memorySource) oid(rel string, seen []byte) string {
	if seen != nil {
		return gitBlobOID(seen)
	}
	return gitBlobOID(m[rel])
}

// open implements fileSource.
func (m memorySource) open(rel string, seen []byte) (io.ReadCloser, int64, error) {
	return io.NopCloser(bytes.NewReader(seen)), int64(len(seen)), nil
}

// exportTree reads a revision as the tree of a repository: its pages with
// their documents, its files with their bytes, and the space's repository
// redirects.
func (s *Service) exportTree(ctx context.Context, snap *content.Snapshot) (*gitbook.Space, error) {
	nodes, err := snap.Tree(ctx)
	if err != nil {
		return nil, err
	}
	var conv func(nodes []*content.TreeNode) ([]*gitbook.Page, error)
	conv = func(nodes []*content.TreeNode) ([]*gitbook.Page, error) {
		out := make([]*gitbook.Page, 0, len(nodes))
		for _, n := range nodes {
			rp := n.Page
			p := &gitbook.Page{ID: rp.ID, Kind: rp.Type, Title: rp.Title, Slug: rp.Slug, Description: rp.Description,
				Emoji: rp.Emoji, Icon: rp.Icon, Hidden: rp.Hidden, NoIndex: rp.NoIndex, NoRobotsIndex: rp.NoRobotsIndex,
				Condition: rp.Condition, Variables: rp.Variables, Layout: rp.Layout, Cover: rp.Cover,
				Href: rp.Href, Target: rp.Target, Computed: rp.Computed, FrontMatter: rp.GitFrontMatter, Listing: rp.GitListing}
			if rp.Git != nil {
				p.Path = rp.Git.Path
			}
			if rp.Type == quire.PageDocument {
				b, err := snap.Document(ctx, rp)
				if err != nil {
					return nil, err
				}
				d, err := document.ParseStored(b)
				if err != nil {
					return nil, fmt.Errorf("git export: page %s: %w", rp.ID, err)
				}
				p.Document = d
			}
			kids, err := conv(n.Children)
			if err != nil {
				return nil, err
			}
			p.Children = kids
			out = append(out, p)
		}
		return out, nil
	}
	pages, err := conv(nodes)
	if err != nil {
		return nil, err
	}
	files, err := snap.Files(ctx)
	if err != nil {
		return nil, err
	}
	sp := &gitbook.Space{Pages: pages}
	for _, f := range files {
		data, err := s.readBlob(ctx, f.Blob)
		if err != nil {
			return nil, err
		}
		gf := &gitbook.File{ID: f.ID, Name: f.Name, ContentType: f.ContentType, Data: data}
		if f.Git != nil {
			gf.Path = f.Git.Path
		}
		sp.Files = append(sp.Files, gf)
	}
	if err := s.exportRedirects(ctx, snap.Rev.SpaceID, sp); err != nil {
		return nil, err
	}
	if err := s.exportGitConfig(ctx, snap.Rev.SpaceID, sp); err != nil {
		return nil, err
	}
	return sp, nil
}

// readBlob reads the bytes of an uploaded file.
func (s *Service) readBlob(ctx context.Context, key string) ([]byte, error) {
	r, _, err := s.OpenBlob(ctx, key)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}
