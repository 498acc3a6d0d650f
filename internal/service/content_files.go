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
	"time"

	"quire/internal/blob"
	"quire/internal/quire"
)

// File limits.
const (
	// MaxInlineFileBytes bounds a file given inline (base64) in a change.
	MaxInlineFileBytes = 1 << 20
	// MaxFetchedFileBytes bounds a file fetched from a URL.
	MaxFetchedFileBytes = 100 << 20
	// MaxFilesPerChange bounds the files of one insert_files change.
	MaxFilesPerChange = 20
	// fetchTimeout bounds fetching one file.
	fetchTimeout = 30 * time.Second
)

// insertFiles adds files to the change request.
func (b *batch) insertFiles(ctx context.Context, field string, ch ContentChange) (ChangeResult, error) {
	if len(ch.Files) == 0 || len(ch.Files) > MaxFilesPerChange {
		return ChangeResult{}, quire.Invalid(field+".files", "give 1 to %d files", MaxFilesPerChange)
	}
	res := ChangeResult{Operation: OutcomeInsertedFiles}
	for i, in := range ch.Files {
		f, err := b.s.storeFile(ctx, fmt.Sprintf("%s.files[%d]", field, i), in)
		if err != nil {
			return ChangeResult{}, err
		}
		if err := b.ed.PutFile(ctx, f); err != nil {
			return ChangeResult{}, err
		}
		if in.Ref != "" {
			b.files[in.Ref] = f.ID
		}
		res.Files = append(res.Files, f)
	}
	return res, nil
}

// storeFile puts a file's bytes in the blob store and describes it.
func (s *Service) storeFile(ctx context.Context, field string, in FileInput) (*quire.File, error) {
	if s.blobs == nil {
		return nil, quire.Errorf(quire.EINTERNAL, "no file storage is configured")
	}
	name := strings.TrimSpace(in.Name)
	if name == "" || strings.ContainsAny(name, "/\\\x00") {
		return nil, quire.Invalid(field+".name", "must be a file name without slashes")
	}
	data := in.Data
	if in.URL != "" {
		var err error
		if data, err = fetchFile(ctx, in.URL); err != nil {
			return nil, quire.Invalid(field+".url", "%v", err)
		}
	}
	key, size, err := s.blobs.Put(ctx, bytes.NewReader(data), MaxFetchedFileBytes)
	if err != nil {
		return nil, err
	}
	ct := in.ContentType
	if ct == "" {
		ct = mime.TypeByExtension(path.Ext(name))
	}
	if ct == "" {
		ct = http.DetectContentType(data)
	}
	f := &quire.File{ID: quire.NewID(), Name: name, ContentType: ct, Size: size, Blob: key}
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
		f.Width, f.Height = cfg.Width, cfg.Height
	}
	return f, nil
}

// fetchFile downloads a file the user pointed at.
func fetchFile(ctx context.Context, url string) ([]byte, error) {
	if !strings.HasPrefix(url, "http://") && !strings.HasPrefix(url, "https://") {
		return nil, fmt.Errorf("only http and https URLs can be fetched")
	}
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch failed: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetch answered %s", resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxFetchedFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("fetch failed: %v", err)
	}
	if len(data) > MaxFetchedFileBytes {
		return nil, fmt.Errorf("the file is larger than %d bytes", MaxFetchedFileBytes)
	}
	return data, nil
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
