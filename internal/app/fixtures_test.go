package app_test

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
)

// handbookFixture is an empty space, Handbook, with clients of the
// organization's admin and of a member who may only read: what the
// space's Git Sync and import pages are tried with.
type handbookFixture struct {
	ID            string
	Admin, Reader *http.Client
}

// newHandbookFixture makes the space and signs both members in.
func newHandbookFixture(t *testing.T, h *harness) handbookFixture {
	t.Helper()
	sp, err := h.Svc.CreateSpace(context.Background(), h.Admin, h.Org, service.SpaceInput{Title: "Handbook"})
	if err != nil {
		t.Fatal(err)
	}
	return handbookFixture{ID: sp.Space.ID, Admin: h.client(t, h.signIn(t, h.Admin)),
		Reader: h.client(t, h.signIn(t, h.newUser(t, "rita@acme.test", "Rita Read", quire.RoleRead)))}
}

// multipartForm is a form as a browser sends it with a file input: the
// text fields in order, then the file under "file" (none when name is
// empty). It returns the body's content type and the body.
func multipartForm(t *testing.T, fields [][2]string, name string, data []byte) (string, []byte) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for _, f := range fields {
		if err := w.WriteField(f[0], f[1]); err != nil {
			t.Fatal(err)
		}
	}
	if name != "" {
		part, err := w.CreateFormFile("file", name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := part.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.FormDataContentType(), b.Bytes()
}
