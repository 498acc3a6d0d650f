package importer

import (
	"context"
	"net/url"
	"path"
	"strings"

	"quire/internal/quire"
)

// SourceOfFile is the source an uploaded file is imported as, from its
// name: Markdown (.md, .markdown, .mdown), HTML (.html, .htm, .xhtml) or
// a zip of them (.zip). ok is false for any other name.
func SourceOfFile(name string) (src Source, ok bool) {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown", ".mdown":
		return SourceMarkdown, true
	case ".html", ".htm", ".xhtml":
		return SourceHTML, true
	case ".zip":
		return SourceZip, true
	}
	return "", false
}

// ImportFile imports an uploaded file, its source told by its name
// (SourceOfFile), converted as the same source at a URL would be: a
// Markdown or HTML file becomes the one page README.md, a zip its pages
// and assets. Relative links of a lone file lead nowhere the server
// knows and are kept as written; images at http(s) addresses are
// fetched, as for a file at a URL. Errors caused by the input (a name
// of another kind, bytes that are not of the kind named, more than the
// import's byte cap) are quire.Invalid errors on the field "file"; an
// ended ctx returns its error.
func (im *Importer) ImportFile(ctx context.Context, name string, data []byte) (*Result, error) {
	source, ok := SourceOfFile(name)
	if !ok {
		return nil, quire.Invalid("file", "%q is not a Markdown, HTML or zip file", name)
	}
	r := im.newRun()
	r.field = "file"
	if int64(len(data)) > r.left {
		return nil, quire.Invalid("file", "%s is larger than the import's limit of %d bytes", name, im.opts.MaxBytes)
	}
	r.left -= int64(len(data))
	title := strings.TrimSuffix(path.Base(name), path.Ext(name))
	if title == "" {
		title = name
	}
	var err error
	switch source {
	case SourceMarkdown:
		r.total++
		err = r.markdownPage(ctx, data, nil, name, title)
	case SourceHTML:
		r.total++
		base := &url.URL{Scheme: "http", Host: archiveHost, Path: "/" + path.Base(name)}
		err = r.htmlPage(ctx, data, base, archiveHost, name, title)
	case SourceZip:
		err = r.zipArchive(ctx, data, name, title)
	}
	if err != nil {
		return nil, err
	}
	return &Result{Files: r.files, Total: r.total, Imported: r.imported}, nil
}
