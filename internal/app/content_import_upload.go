package app

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"path"
	"strings"

	"quire/internal/importer"
	"quire/internal/quire"
	"quire/internal/service"
)

// maxImportFileName bounds the name of an uploaded file.
const maxImportFileName = 255

// importUpload imports an uploaded Markdown, HTML or zip file into the
// space, a new change request or an open one, as importContent does with
// a URL, then shows how many resources it imported. The file is bounded
// as every upload of the app is (service.MaxInlineFileBytes); a form
// without a file, with a file of another kind, or too large is drawn
// again naming the file, and nothing is made.
func (a *App) importUpload(w http.ResponseWriter, r *http.Request) error {
	imports, err := a.importsService()
	if err != nil {
		return err
	}
	name, data, into, err := readImportUpload(w, r)
	if _, ok := importer.SourceOfFile(name); err == nil && !ok {
		// Refused before a change request is made for it.
		err = quire.Invalid("file", "%q is not a Markdown, HTML or zip file", name)
	}
	f := importForm{Source: "website", Into: into, Upload: true, File: name}
	return a.runImport(w, r, f, "upload", err, "Import from "+clipSubject(name),
		func(ctx context.Context, u *quire.User, spaceID, crID string) (*service.ImportResult, error) {
			return imports.ImportFile(ctx, u, spaceID, crID, name, data)
		})
}

// importFileTooLarge is the error of an upload over the limit.
func importFileTooLarge() error {
	return &quire.Error{Code: quire.ETOOLARGE, Field: "file",
		Message: "is larger than " + sizeText(service.MaxInlineFileBytes) + ", the most one upload may hold"}
}

// readImportUpload reads the upload form, bounded: the file's name and
// bytes and where the import goes. A body that is not multipart holds no
// file; the error names what is wrong with the file, and into is read
// whatever it is.
func readImportUpload(w http.ResponseWriter, r *http.Request) (name string, data []byte, into string, err error) {
	missing := quire.Invalid("file", "is missing: choose a Markdown, HTML or zip file")
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "multipart/form-data" {
		return "", nil, r.PostFormValue("into"), missing
	}
	if r.ContentLength > service.MaxInlineFileBytes+uploadOverhead {
		return "", nil, "", importFileTooLarge()
	}
	r.Body = http.MaxBytesReader(w, r.Body, service.MaxInlineFileBytes+uploadOverhead)
	if err := r.ParseMultipartForm(service.MaxInlineFileBytes + uploadOverhead); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return "", nil, "", importFileTooLarge()
		}
		return "", nil, "", quire.Invalid("file", "could not be read: the form is not a valid upload")
	}
	into = r.PostFormValue("into")
	file, hdr, err := r.FormFile("file")
	if err != nil {
		return "", nil, into, missing
	}
	defer file.Close()
	name = strings.TrimSpace(path.Base(strings.ReplaceAll(hdr.Filename, "\\", "/")))
	if name == "" || name == "." || name == "/" {
		return "", nil, into, missing
	}
	if len(name) > maxImportFileName {
		return "", nil, into, quire.Invalid("file", "has a name longer than %d characters", maxImportFileName)
	}
	data, err = io.ReadAll(io.LimitReader(file, service.MaxInlineFileBytes+1))
	if err != nil {
		return name, nil, into, quire.Invalid("file", "could not be read: the form is not a valid upload")
	}
	if len(data) > service.MaxInlineFileBytes {
		return name, nil, into, importFileTooLarge()
	}
	if len(data) == 0 {
		return name, nil, into, quire.Invalid("file", "%s is empty", name)
	}
	return name, data, into, nil
}
