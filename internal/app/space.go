package app

import (
	"io"
	"net/http"
	"strconv"

	"quire/internal/quire"
)

// spaceFrom returns the space the access check loaded; a deleted space
// is not found.
func spaceFrom(r *http.Request) (*quire.Space, error) {
	sp, err := anySpaceFrom(r)
	if err != nil || sp.DeletedAt != nil {
		return nil, quire.NotFound("space")
	}
	return sp, nil
}

// anySpaceFrom returns the space the access check loaded, deleted or
// not, for the pages that restore or delete it.
func anySpaceFrom(r *http.Request) (*quire.Space, error) {
	sp, ok := subjectFrom[*quire.Space](r.Context())
	if !ok || sp == nil {
		return nil, quire.NotFound("space")
	}
	return sp, nil
}

// spacePath is the app's address of a space.
func spacePath(id string) string { return "/app/s/" + id }

// spaceAppPath is the address of one of the app's own pages or forms of
// a space (rest: "search", "revisions/…"): they all sit under "~/",
// which no page path holds (content.Slugify drops "~"), so none of them
// hides a page of the space.
func spaceAppPath(id, rest string) string { return spacePath(id) + "/~/" + rest }

// spaceShell builds the frame of a page of a space: its organization,
// the space marked, the header's search searching the space. The
// sidebar is the space's own, so the organization's tree is not read.
func (a *App) spaceShell(r *http.Request, sp *quire.Space, title string) (*Shell, error) {
	sh, err := a.frame(r, sp.OrgID)
	if err != nil {
		return nil, err
	}
	sh.Title, sh.SpaceID, sh.Section = title, sp.ID, "space"
	sh.SearchURL = spaceAppPath(sp.ID, "search")
	return sh, nil
}

// spaceHome is a space's front page: its first page, as a site shows it
// at the space's address, or a note that it has none yet.
func (a *App) spaceHome(w http.ResponseWriter, r *http.Request) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	return a.showPage(w, r, sp, currentMode(sp.ID), "")
}

// spacePage is a page of a space's current content, by its path.
func (a *App) spacePage(w http.ResponseWriter, r *http.Request) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	return a.showPage(w, r, sp, currentMode(sp.ID), r.PathValue("path"))
}

// spaceFile answers a file of a revision of a space, as pages embed and
// link them.
func (a *App) spaceFile(w http.ResponseWriter, r *http.Request) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	f, err := a.svc.SpaceFile(r.Context(), sp.ID, r.PathValue("revisionId"), r.PathValue("fileId"))
	if err != nil {
		return err
	}
	defer f.Body.Close()
	h := w.Header()
	ct := f.File.ContentType
	if ct == "" {
		ct = "application/octet-stream"
	}
	h.Set("Content-Type", ct)
	h.Set("Content-Length", strconv.FormatInt(f.Size, 10))
	h.Set("X-Content-Type-Options", "nosniff")
	// A file is shown as itself, never run as a page of the app.
	h.Set("Content-Security-Policy", "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox")
	h.Set("Cache-Control", "private, max-age=86400, immutable")
	_, err = io.Copy(w, f.Body)
	return err
}
