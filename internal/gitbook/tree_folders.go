package gitbook

import (
	"sort"
	"strings"

	"quire/internal/content"
	"quire/internal/quire"
)

// folder is a folder of page files while the tree is inferred.
type folder struct {
	files   []string           // page files directly in it, but its README.md
	folders map[string]*folder // sub-folders holding page files, by name
	readme  string             // its README.md, if any
}

// treeFromFolders infers the page tree from the folders when there is
// no table of contents: the landing page first, then each folder's files
// and sub-folders in natural name order. A folder with a README.md is a
// page with the folder's other pages as children; a top-level folder
// without one is a group; a deeper one adds its pages to its parent.
func (r *reader) treeFromFolders() error {
	root := &folder{folders: map[string]*folder{}}
	paths := make([]string, 0)
	for path := range r.content {
		if r.isPageFile(path) && path != r.readme {
			paths = append(paths, path)
		}
	}
	for _, path := range paths {
		f := root
		parts := strings.Split(path, "/")
		if len(parts) > maxDepth+1 {
			return fileErr(r.contentPath(path), "folders nest more than %d levels", maxDepth)
		}
		for _, name := range parts[:len(parts)-1] {
			sub := f.folders[name]
			if sub == nil {
				sub = &folder{folders: map[string]*folder{}}
				f.folders[name] = sub
			}
			f = sub
		}
		if isReadme(path) && len(parts) > 1 {
			f.readme = path
		} else {
			f.files = append(f.files, path)
		}
	}
	r.sp.Pages = r.folderPages(root, "", true)
	return nil
}

// folderPages returns the pages of a folder's contents.
func (r *reader) folderPages(f *folder, dir string, top bool) []*Page {
	type item struct {
		name string
		file string
		sub  *folder
	}
	items := make([]item, 0, len(f.files)+len(f.folders))
	for _, path := range f.files {
		items = append(items, item{name: stemOf(path), file: path})
	}
	for name, sub := range f.folders {
		items = append(items, item{name: name, sub: sub})
	}
	sort.Slice(items, func(i, j int) bool {
		if c := naturalCompare(items[i].name, items[j].name); c != 0 {
			return c < 0
		}
		return items[i].file < items[j].file
	})
	var out []*Page
	for _, it := range items {
		switch {
		case it.file != "":
			out = append(out, r.documentPage(it.file, ""))
		case it.sub.readme != "":
			p := r.documentPage(it.sub.readme, "")
			p.Children = r.folderPages(it.sub, joinDir(dir, it.name), false)
			out = append(out, p)
		case top:
			g := &Page{Kind: quire.PageGroup, Title: humanize(it.name), Slug: content.Slugify(it.name)}
			g.ID = r.groupID(g.Slug)
			g.Children = r.folderPages(it.sub, joinDir(dir, it.name), false)
			out = append(out, g)
		default:
			out = append(out, r.folderPages(it.sub, joinDir(dir, it.name), false)...)
		}
	}
	return out
}

func joinDir(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// naturalCompare orders names case-insensitively, with runs of digits
// compared by value: "2-setup" before "10-deploy".
func naturalCompare(a, b string) int {
	a, b = strings.ToLower(a), strings.ToLower(b)
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if len(na) != len(nb) {
				return len(na) - len(nb)
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return int(a[0]) - int(b[0])
		}
		a, b = a[1:], b[1:]
	}
	return len(a) - len(b)
}

func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}
