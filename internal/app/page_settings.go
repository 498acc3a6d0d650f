package app

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
	"path"
	"strings"
	"unicode/utf8"

	"quire/internal/content"
	"quire/internal/quire"
	"quire/internal/service"
)

// keepCover is the cover choice that leaves a cover the list of files
// cannot show (an image by address, or a file that is not an image) as
// it is.
const keepCover = "current"

// pageSettingsView is what a page's settings page shows.
type pageSettingsView struct {
	spaceSidebar
	Base, Back, Action string
	// Page is the page with its settings as shown: as stored, or as typed
	// into a form that was refused.
	Page *quire.RevisionPage
	// Layout is the page's layout; Cover the chosen cover: a file's id,
	// keepCover, or "" for none; Files the images of the content it may
	// take as its cover; Current names the cover the files cannot show,
	// offered as keepCover ("" when there is none).
	Layout  quire.PageLayout
	Cover   string
	Current string
	Files   []*quire.File
	State   *FormState
}

// Wide reports whether the page is drawn wide.
func (v *pageSettingsView) Wide() bool { return v.Layout.Width == "wide" }

// pageSettings answers a page's settings page.
func (a *App) pageSettings(w http.ResponseWriter, r *http.Request) error {
	op, err := a.loadPageOp(r)
	if err != nil {
		return err
	}
	return a.drawPageSettings(w, r, http.StatusOK, op, nil)
}

// drawPageSettings draws the settings page: the page as stored, or, when
// state holds an error, as the refused form set it.
func (a *App) drawPageSettings(w http.ResponseWriter, r *http.Request, status int, op *pageOp, state *FormState) error {
	p := op.page
	v := &pageSettingsView{Base: op.base(), Page: p, State: state, Layout: quire.DefaultPageLayout(),
		Action: op.base() + "/" + p.ID + "/settings"}
	v.Space, v.ChangeRequest, v.Edit = op.sp, op.c.ChangeRequest, op.base()
	if p.Layout != nil {
		v.Layout = *p.Layout
	}
	ctx := r.Context()
	files, err := op.c.Files(ctx)
	if err != nil {
		return err
	}
	for _, f := range files {
		if strings.HasPrefix(f.ContentType, "image/") {
			v.Files = append(v.Files, f)
		}
	}
	v.Cover, v.Current = coverChoice(p.Cover, v.Files)
	if state != nil {
		v.typed(r)
	}
	if v.Tree, err = a.readTree(r, op.sp, op.m); err != nil {
		return err
	}
	if v.Back, err = a.pageURL(r, op, p.ID); err != nil {
		return err
	}
	sh, err := a.spaceShell(r, op.sp, "Settings of "+p.Title+" · "+op.sp.Title)
	if err != nil {
		return err
	}
	if !op.t.live() {
		sh.Section = "changes"
	}
	return a.render(w, r, status, "page_settings", sh, v)
}

// coverChoice returns the cover choice of a stored cover among the
// images files: the file's id, or keepCover with what names the cover
// when the list cannot show it.
func coverChoice(c *quire.PageCover, files []*quire.File) (choice, current string) {
	if c == nil || c.Ref == nil {
		return "", ""
	}
	if c.Ref.Kind == quire.RefFile {
		for _, f := range files {
			if f.ID == c.Ref.File {
				return f.ID, ""
			}
		}
		return keepCover, "Current cover (file " + c.Ref.File + ")"
	}
	if c.Ref.Kind == quire.RefURL {
		return keepCover, "Current cover (" + c.Ref.URL + ")"
	}
	return keepCover, "Current cover"
}

// typed shows the settings as the refused form set them, so that nothing
// typed is lost.
func (v *pageSettingsView) typed(r *http.Request) {
	p := *v.Page
	p.Title = r.PostFormValue("title")
	p.Slug = r.PostFormValue("slug")
	p.Emoji = r.PostFormValue("emoji")
	p.Icon = r.PostFormValue("icon")
	p.Description = r.PostFormValue("description")
	p.Hidden = r.PostFormValue("hidden") == "on"
	v.Page = &p
	on := func(name string) bool { return r.PostFormValue(name) == "on" }
	v.Layout.Title, v.Layout.Description, v.Layout.Cover, v.Layout.Outline = on("show_title"), on("show_description"), on("show_cover"), on("show_outline")
	v.Layout.Width = r.PostFormValue("width")
	if c := r.PostFormValue("cover"); c != keepCover || v.Current != "" {
		v.Cover = c
	}
}

// savePageSettings writes a page's settings from the form: title, slug
// (from the title when empty), emoji, icon, description, cover, hidden
// and layout.
func (a *App) savePageSettings(w http.ResponseWriter, r *http.Request) error {
	op, err := a.loadPageOp(r)
	if err != nil {
		return err
	}
	var f service.PageFields
	err = readSettingsForm(w, r)
	if err == nil {
		f, err = pageSettingsForm(r, op.page)
	}
	var changes []service.ContentChange
	if err == nil {
		var cover *service.FileInput
		if cover, err = coverUpload(r); cover != nil {
			// The new image becomes the cover in the same write.
			cover.Ref = "cover"
			f.Cover = &service.CoverInput{File: cover.Ref}
			changes = append(changes, service.ContentChange{Operation: service.OpInsertFiles, Files: []service.FileInput{*cover}})
		}
	}
	if err == nil {
		changes = append(changes, service.ContentChange{Operation: service.OpUpdatePage, Page: op.page.ID, Fields: f})
		_, _, err = a.writeContent(r.Context(), op.sp, op.t, "Page settings of "+op.page.Title, changes)
	}
	if st, ok := pageFormState("settings", err, ""); ok {
		return a.drawPageSettings(w, r, http.StatusUnprocessableEntity, op, st)
	} else if err != nil {
		return err
	}
	to, err := a.pageURL(r, op, op.page.ID)
	if err != nil {
		return err
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

// coverUpload returns the image chosen in the settings form to become
// the page's cover; nil when none was.
func coverUpload(r *http.Request) (*service.FileInput, error) {
	file, hdr, err := r.FormFile("cover_upload")
	if errors.Is(err, http.ErrMissingFile) || errors.Is(err, http.ErrNotMultipart) {
		return nil, nil
	} else if err != nil {
		return nil, coverErr(err)
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, service.MaxInlineFileBytes+1))
	if err != nil {
		return nil, coverErr(err)
	}
	if len(data) > service.MaxInlineFileBytes {
		return nil, coverErr(tooLarge())
	}
	if len(data) == 0 {
		return nil, quire.Invalid("cover", "the image is empty")
	}
	name := path.Base(strings.ReplaceAll(hdr.Filename, "\\", "/"))
	svg := strings.EqualFold(path.Ext(name), ".svg") && bytes.Contains(data[:min(len(data), 1024)], []byte("<svg"))
	if !strings.HasPrefix(http.DetectContentType(data), "image/") && !svg {
		return nil, quire.Invalid("cover", "must be an image (PNG, JPEG, GIF, WebP or SVG)")
	}
	if name == "." || name == "/" {
		name = "cover"
	}
	return &service.FileInput{Name: name, Data: data}, nil
}

// readSettingsForm reads the settings form: urlencoded, or multipart
// when it carries an image, bounded as one upload.
func readSettingsForm(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, service.MaxInlineFileBytes+uploadOverhead)
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "multipart/form-data" {
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			return coverErr(err)
		}
		return nil
	}
	if err := r.ParseForm(); err != nil {
		return quire.Invalid("", "the form could not be read")
	}
	return nil
}

// coverErr names the cover in an upload's failure: too large, or not a
// valid multipart body.
func coverErr(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) || quire.ErrorCode(err) == quire.ETOOLARGE {
		return &quire.Error{Code: quire.ETOOLARGE, Field: "cover", Message: "the image is larger than " +
			sizeText(service.MaxInlineFileBytes) + ", the most one upload may hold"}
	}
	return quire.Invalid("cover", "the upload is not a valid multipart body")
}

// pageSettingsForm reads the settings form into the fields of an
// update_page change of page p; a field out of bounds is EINVALID naming it.
func pageSettingsForm(r *http.Request, p *quire.RevisionPage) (service.PageFields, error) {
	var f service.PageFields
	title, err := pageFormTitle(r)
	if err != nil {
		return f, err
	}
	f.Title = &title
	slug := strings.TrimSpace(r.PostFormValue("slug"))
	if slug == "" {
		slug = content.Slugify(title)
	}
	if slug != "" {
		f.Slug = &slug
	}
	for _, t := range []struct {
		name string
		max  int
		dst  **string
	}{{"emoji", 50, &f.Emoji}, {"icon", 50, &f.Icon}, {"description", 1000, &f.Description}} {
		v := strings.TrimSpace(r.PostFormValue(t.name))
		if utf8.RuneCountInString(v) > t.max {
			return f, quire.Invalid(t.name, "must be at most %d characters", t.max)
		}
		*t.dst = &v
	}
	hidden := r.PostFormValue("hidden") == "on"
	f.Hidden = &hidden
	// The cover the files cannot show is kept as it is; the service
	// keeps a file cover chosen again as it is too.
	if c := r.PostFormValue("cover"); c != keepCover {
		f.Cover = &service.CoverInput{File: c}
	}
	on := func(name string) bool { return r.PostFormValue(name) == "on" }
	l := quire.DefaultPageLayout()
	if p.Layout != nil {
		l = *p.Layout
	}
	l.Title, l.Description, l.Cover, l.Outline = on("show_title"), on("show_description"), on("show_cover"), on("show_outline")
	switch width := r.PostFormValue("width"); width {
	case "default", "wide":
		l.Width = width
	default:
		return f, quire.Invalid("layout.width", "must be default (normal) or wide")
	}
	f.Layout = &l
	return f, nil
}
