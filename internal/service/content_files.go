package service

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // decode dimensions of uploaded images
	_ "image/jpeg"
	_ "image/png"
	"io"
	"mime"
	"net/http"
	"path"
	"strings"

	"quire/internal/blob"
	"quire/internal/fetch"
	"quire/internal/quire"
)

// File limits.
const (
	// MaxInlineFileBytes bounds a file given inline (base64) in a change.
	MaxInlineFileBytes = 1 << 20
	// MaxFetchedBytesPerWrite bounds what one content write fetches from
	// URLs, all its files together; each file is also bounded by the
	// fetch client's cap.
	MaxFetchedBytesPerWrite = 64 << 20
	// MaxFilesPerChange bounds the files of one insert_files change.
	MaxFilesPerChange = 20
	// sniffBytes is how much of the start of a file is kept to detect its
	// content type and image dimensions.
	sniffBytes = 1 << 20
)

// storeFiles puts the bytes of every file of the insert_files changes in
// the blob store, fetching those given by URL, and returns the files of
// each change by its index. It runs once per content write, before the
// write's attempts, so that an attempt lost to a concurrent write does not
// fetch again. Every count and name is checked before anything is fetched.
func (s *Service) storeFiles(ctx context.Context, changes []ContentChange) ([][]*quire.File, error) {
	some := false
	for i, ch := range changes {
		if ch.Operation != OpInsertFiles {
			continue
		}
		field := fmt.Sprintf("changes[%d]", i)
		if len(ch.Files) == 0 || len(ch.Files) > MaxFilesPerChange {
			return nil, quire.Invalid(field+".files", "give 1 to %d files", MaxFilesPerChange)
		}
		for j, in := range ch.Files {
			if _, err := fileName(fmt.Sprintf("%s.files[%d]", field, j), in); err != nil {
				return nil, err
			}
		}
		some = true
	}
	if !some {
		return nil, nil
	}
	if s.blobs == nil {
		return nil, quire.Errorf(quire.EINTERNAL, "no file storage is configured")
	}
	out := make([][]*quire.File, len(changes))
	budget := s.fetchBudget
	for i, ch := range changes {
		if ch.Operation != OpInsertFiles {
			continue
		}
		for j, in := range ch.Files {
			f, fetched, err := s.storeFile(ctx, fmt.Sprintf("changes[%d].files[%d]", i, j), in, budget)
			if err != nil {
				return nil, err
			}
			budget -= fetched
			out[i] = append(out[i], f)
		}
	}
	return out, nil
}

// fileName returns the name of a file, or an error naming field when it
// is not a plain file name.
func fileName(field string, in FileInput) (string, error) {
	name := strings.TrimSpace(in.Name)
	if name == "" || strings.ContainsAny(name, "/\\\x00") {
		return "", quire.Invalid(field+".name", "must be a file name without slashes")
	}
	return name, nil
}

// storeFile puts one file's bytes in the blob store, streaming them from
// its URL when it has one, and describes it. budget is what the content
// write may still fetch; fetched is what this file took of it.
func (s *Service) storeFile(ctx context.Context, field string, in FileInput, budget int64) (f *quire.File, fetched int64, err error) {
	name, err := fileName(field, in)
	if err != nil {
		return nil, 0, err
	}
	var src io.Reader = bytes.NewReader(in.Data)
	limit := int64(MaxInlineFileBytes)
	tooLarge := func() error { return quire.Invalid(field+".base64", "at most %d bytes", MaxInlineFileBytes) }
	if in.URL != "" {
		field += ".url"
		resp, err := s.fetch.Get(ctx, in.URL)
		if err != nil {
			return nil, 0, fetchErr(field, err)
		}
		defer resp.Body.Close()
		limit, tooLarge = resp.MaxBytes, func() error {
			return quire.Invalid(field, "the file is larger than %d bytes", resp.MaxBytes)
		}
		if budget < limit {
			limit, tooLarge = budget, func() error {
				return quire.Invalid(field, "the files fetched by one request may total at most %d bytes", s.fetchBudget)
			}
		}
		if resp.Size > limit {
			return nil, 0, tooLarge()
		}
		src = resp.Body
	}
	head := &prefix{max: sniffBytes}
	key, size, err := s.blobs.Put(ctx, io.TeeReader(src, head), limit)
	if err != nil {
		var bt *blob.TooLargeError
		if errors.As(err, &bt) || errors.Is(err, fetch.ErrTooLarge) {
			return nil, 0, tooLarge()
		}
		return nil, 0, fetchErr(field, err)
	}
	if in.URL != "" {
		fetched = size
	}
	ct := in.ContentType
	if ct == "" {
		ct = mime.TypeByExtension(path.Ext(name))
	}
	if ct == "" {
		ct = http.DetectContentType(head.Bytes())
	}
	f = &quire.File{ID: quire.NewID(), Name: name, ContentType: ct, Size: size, Blob: key}
	if w, h, ok := imageSize(head.Bytes()); ok {
		f.Width, f.Height = w, h
	}
	return f, fetched, nil
}

// imageSize reads the dimensions of a GIF, JPEG or PNG image from its
// first bytes.
func imageSize(head []byte) (width, height int, ok bool) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(head))
	if err != nil {
		return 0, 0, false
	}
	return cfg.Width, cfg.Height, true
}

// fetchErr turns a failed fetch into a 400 naming field; other errors
// pass unchanged.
func fetchErr(field string, err error) error {
	var fe *fetch.Error
	if errors.As(err, &fe) {
		return quire.Invalid(field, "%s", fe.Error())
	}
	var tl *fetch.TooLargeError
	if errors.As(err, &tl) {
		return quire.Invalid(field, "the file is larger than %d bytes", tl.Max)
	}
	return err
}

// prefix is an io.Writer keeping the first max bytes written to it.
type prefix struct {
	buf bytes.Buffer
	max int
}

// Write implements io.Writer; it never fails.
func (p *prefix) Write(b []byte) (int, error) {
	if room := p.max - p.buf.Len(); room > 0 {
		p.buf.Write(b[:min(room, len(b))])
	}
	return len(b), nil
}

// Bytes returns the bytes kept.
func (p *prefix) Bytes() []byte { return p.buf.Bytes() }

// insertFiles adds the files stored for the change to the change request.
func (b *batch) insertFiles(ctx context.Context, files []*quire.File, ch ContentChange) (ChangeResult, error) {
	res := ChangeResult{Operation: OutcomeInsertedFiles}
	for i, stored := range files {
		f := new(quire.File)
		*f = *stored // each attempt starts from the file as stored
		if err := b.ed.PutFile(ctx, f); err != nil {
			return ChangeResult{}, err
		}
		if ref := ch.Files[i].Ref; ref != "" {
			b.files[ref] = f.ID
		}
		res.Files = append(res.Files, f)
	}
	return res, nil
}

// OpenBlob opens the bytes of an uploaded file.
func (s *Service) OpenBlob(ctx context.Context, key string) (io.ReadCloser, int64, error) {
	if s.blobs == nil {
		return nil, 0, quire.Errorf(quire.EINTERNAL, "no file storage is configured")
	}
	r, size, err := s.blobs.Open(ctx, key)
	if errors.Is(err, blob.ErrNotFound) {
		return nil, 0, quire.NotFound("file content")
	}
	return r, size, err
}
