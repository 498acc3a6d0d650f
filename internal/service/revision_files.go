package service

import (
	"context"
	"net/url"
	"strings"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/quire"
)

// revisionFiles are the files of a revision by id, read on first use,
// for resolving the files its pages name.
type revisionFiles struct {
	byID map[string]*quire.File
	// err is the failure of the read, if any; the files are then none.
	err error
}

// find returns the file of the revision that id names, by id or by
// repository path (see fileNamed); nil for none.
func (rf *revisionFiles) find(ctx context.Context, snap *content.Snapshot, id string) *quire.File {
	if rf.byID == nil {
		rf.byID = map[string]*quire.File{}
		list, err := snap.Files(ctx)
		rf.err = err
		for _, f := range list {
			rf.byID[f.ID] = f
		}
	}
	if f := rf.byID[id]; f != nil {
		return f
	}
	return fileNamed(rf.byID, id)
}

// fileNamed returns the file a repository path names (.gitbook/assets/<name>,
// percent-encoded or not): the file of that name, the lowest id when
// several share it; nil for none. Raw HTML and paths of imported pages
// name files this way, where image blocks name them by id.
func fileNamed(files map[string]*quire.File, path string) *quire.File {
	if p, err := url.PathUnescape(path); err == nil {
		path = p
	}
	name := path[strings.LastIndex(path, "/")+1:]
	var f *quire.File
	for _, c := range files {
		if c.Name == name && (f == nil || c.ID < f.ID) {
			f = c
		}
	}
	return f
}

// fileAddress gives the address and name of a file a page names, by id
// or repository path; "" for none. The app and the site reader each
// have one, addressing files where they serve them.
type fileAddress func(id string) (url, name string)

// image resolves the source of an image, drawing, cover or inline image.
func (fa fileAddress) image(ref document.Ref) string {
	switch ref.Kind {
	case document.RefURL:
		return ref.URL
	case document.RefFile:
		u, _ := fa(ref.File)
		return u
	}
	return ""
}

// download resolves a file block to its download address and name.
func (fa fileAddress) download(ref document.Ref) SiteTarget {
	if ref.Kind == document.RefURL {
		return SiteTarget{URL: ref.URL}
	}
	u, name := fa(ref.File)
	return SiteTarget{URL: u, Title: name}
}
