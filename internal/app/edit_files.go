package app

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"

	"quire/internal/quire"
	"quire/internal/service"
)

// uploadOverhead is what a multipart body may hold beyond its file: the
// part's headers and boundaries.
const uploadOverhead = 64 << 10

// uploadAnswer is what an upload answers: the Markdown referring to the
// stored file, to insert where it was pasted or dropped, and the file.
type uploadAnswer struct {
	Markdown string      `json:"markdown"`
	File     *quire.File `json:"file"`
}

// uploadEditFile stores the file of a multipart request (field "file")
// in the edit target, as one insert_files change, and answers the
// Markdown that shows it in a page: an image for an image, a file block
// otherwise. The file is bounded as a file given inline to a content
// write is (service.MaxInlineFileBytes); its type is the one the browser
// sent, else the service's rules (name, then content) decide.
func (a *App) uploadEditFile(w http.ResponseWriter, r *http.Request) error {
	return a.jsonHandler(func(w http.ResponseWriter, r *http.Request) (any, error) {
		sp, err := spaceFrom(r)
		if err != nil {
			return nil, err
		}
		target, err := editTargetFrom(r)
		if err != nil {
			return nil, err
		}
		in, err := uploadedFile(w, r)
		if err != nil {
			return nil, err
		}
		_, results, err := a.writeContent(r.Context(), sp, target, "Upload "+in.Name, []service.ContentChange{
			{Operation: service.OpInsertFiles, Files: []service.FileInput{in}}})
		if err != nil {
			return nil, err
		}
		if len(results) != 1 || len(results[0].Files) != 1 {
			return nil, errors.New("the upload stored no file")
		}
		f := results[0].Files[0]
		return uploadAnswer{Markdown: fileMarkdown(f), File: f}, nil
	})(w, r)
}

// tooLarge is the error of a file over the upload limit.
func tooLarge() error {
	return &quire.Error{Code: quire.ETOOLARGE, Field: "file",
		Message: "the file is larger than " + sizeText(service.MaxInlineFileBytes) + ", the most one upload may hold"}
}

// uploadedFile reads the file of an upload request, bounded.
func uploadedFile(w http.ResponseWriter, r *http.Request) (service.FileInput, error) {
	ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || ct != "multipart/form-data" {
		return service.FileInput{}, quire.Invalid("file", "send the file as multipart/form-data")
	}
	if r.ContentLength > service.MaxInlineFileBytes+uploadOverhead {
		return service.FileInput{}, tooLarge()
	}
	r.Body = http.MaxBytesReader(w, r.Body, service.MaxInlineFileBytes+uploadOverhead)
	mr, err := r.MultipartReader()
	if err != nil {
		return service.FileInput{}, quire.Invalid("file", "the upload is not a valid multipart body")
	}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return service.FileInput{}, quire.Invalid("file", "choose a file to upload")
		}
		if err != nil {
			return service.FileInput{}, multipartErr(err)
		}
		if part.FormName() != "file" || part.FileName() == "" {
			_ = part.Close()
			continue
		}
		data, err := io.ReadAll(io.LimitReader(part, service.MaxInlineFileBytes+1))
		if err != nil {
			return service.FileInput{}, multipartErr(err)
		}
		if len(data) > service.MaxInlineFileBytes {
			return service.FileInput{}, tooLarge()
		}
		name := path.Base(strings.ReplaceAll(part.FileName(), "\\", "/"))
		in := service.FileInput{Name: strings.TrimSpace(name), Data: data}
		if pct, _, err := mime.ParseMediaType(part.Header.Get("Content-Type")); err == nil && pct != "application/octet-stream" {
			in.ContentType = pct
		}
		if in.Name == "" || in.Name == "." || in.Name == "/" {
			return service.FileInput{}, quire.Invalid("file", "the file has no name")
		}
		return in, nil
	}
}

// multipartErr names the upload's problem: a body over the limit, or
// one that is not multipart as it says.
func multipartErr(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return tooLarge()
	}
	return quire.Invalid("file", "the upload is not a valid multipart body")
}

// fileMarkdown is the Markdown of a page showing a stored file: an image
// for an image, a file block otherwise. Both refer to the file by its
// id, as page bodies do; the page view finds it in the content's files.
func fileMarkdown(f *quire.File) string {
	if strings.HasPrefix(f.ContentType, "image/") {
		alt := strings.TrimSuffix(f.Name, path.Ext(f.Name))
		return "![" + markdownText(alt) + "](" + f.ID + ")\n"
	}
	return "{% file src=\"" + f.ID + "\" %}\n" + markdownText(f.Name) + "\n{% endfile %}\n"
}

// markdownText escapes the characters of s that Markdown would read as
// markup.
func markdownText(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_{}[]<>()#+-!|~$", r) {
			b.WriteByte('\\')
		}
		if r == '\n' || r == '\r' {
			r = ' '
		}
		b.WriteRune(r)
	}
	return b.String()
}

// sizeText writes a byte count for people: "1 MB".
func sizeText(n int) string {
	const mb = 1 << 20
	if n%mb == 0 {
		return strconv.Itoa(n/mb) + " MB"
	}
	return strconv.Itoa(n) + " bytes"
}
