package app

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"quire/internal/quire"
	"quire/internal/service"
)

// Limits of the forms of OpenAPI specifications, as the API's schema
// sets them: a specification's text is bounded by the API's body limit
// for it (httpapi.OpenAPISpecMaxBody).
const (
	openAPIMaxText = 16 << 20
	openAPIMaxSlug = 100
	openAPIMaxURL  = 2048
	// openAPIMaxField bounds a text field of the multipart form: more
	// than the longest value allowed, so that one too long is refused
	// naming its field.
	openAPIMaxField = 4 << 10
)

// openAPISlug is the pattern of a specification's slug, as the API's.
var openAPISlug = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// openAPIAddForm is the add form as typed. The file's text is never
// shown back.
type openAPIAddForm struct {
	Slug, URL string
}

// openAPINotice returns the confirmation of a change the page was
// redirected after.
func openAPINotice(r *http.Request) string {
	switch r.URL.Query().Get("done") {
	case "added":
		return "The specification was added. It is processed in the background: this page shows how it goes."
	case "visibility":
		return "The visibility was saved."
	case "refresh":
		return "The specification is being fetched again."
	case "deleted":
		return "The specification was deleted."
	}
	return ""
}

// intervalText says a refresh interval in words: "every hour", "every
// 30 minutes".
func intervalText(d time.Duration) string {
	switch {
	case d == time.Hour:
		return "every hour"
	case d%time.Hour == 0:
		return "every " + strconv.Itoa(int(d/time.Hour)) + " hours"
	case d%time.Minute == 0 && d > time.Minute:
		return "every " + strconv.Itoa(int(d/time.Minute)) + " minutes"
	}
	return "every " + d.String()
}

// openAPIFieldLabel names a field of the forms in a message.
func openAPIFieldLabel(field string) string {
	switch field {
	case "slug":
		return "Slug"
	case "url":
		return "URL"
	case "file":
		return "File"
	case "visibility":
		return "Visibility"
	case "source":
		return "Source"
	}
	return "The form"
}

// openAPIFormState turns an invalid field's error (or a slug taken) into
// the state of form to draw again, naming the field; ok is false for any
// other error. The service's fields of a source are the form's.
func openAPIFormState(form string, err error) (*FormState, bool) {
	if quire.ErrorCode(err) == quire.ECONFLICT {
		return &FormState{Form: form, Field: "slug", Message: "Slug is taken by another specification of the organization."}, true
	}
	field, msg, ok := formError(err)
	if !ok {
		var e *quire.Error
		if !errors.As(err, &e) || e.Code != quire.ETOOLARGE {
			return nil, false
		}
		field, msg = e.Field, e.Message
	}
	switch field {
	case "source.url":
		field = "url"
	case "source.text":
		field = "file"
	}
	return &FormState{Form: form, Field: field, Message: openAPIFieldLabel(field) + " " + msg + "."}, true
}

// formStatus is the status of a form drawn again: 413 for a file over
// the limit, 409 for a slug taken, 422 for any other invalid field.
func formStatus(err error) int {
	switch quire.ErrorCode(err) {
	case quire.ETOOLARGE:
		return http.StatusRequestEntityTooLarge
	case quire.ECONFLICT:
		return http.StatusConflict
	}
	return http.StatusUnprocessableEntity
}

// addOpenAPISpec adds a specification from the form, from a URL or an
// uploaded file, and goes to its page, which shows its processing. A
// refused form is drawn again naming its field, and nothing is stored.
func (a *App) addOpenAPISpec(w http.ResponseWriter, r *http.Request) error {
	specs, err := a.openAPIService()
	if err != nil {
		return err
	}
	orgID := r.PathValue("organizationId")
	f, src, err := readOpenAPIAdd(w, r)
	var spec *quire.OpenAPISpec
	if err == nil {
		spec, err = specs.Create(r.Context(), orgID, f.Slug, src)
	}
	if st, ok := openAPIFormState("add", err); ok {
		return a.drawOpenAPISpecs(w, r, formStatus(err), f, st)
	} else if err != nil {
		return err
	}
	http.Redirect(w, r, openAPISpecPath(orgID, spec.Slug)+"?done=added", http.StatusSeeOther)
	return nil
}

// readOpenAPIAdd reads the add form, urlencoded (a URL) or multipart (a
// URL or a file), and checks it as the API's schema would: the slug, one
// source, a URL's length, a file's size and encoding.
func readOpenAPIAdd(w http.ResponseWriter, r *http.Request) (openAPIAddForm, service.OpenAPISource, error) {
	var (
		f    openAPIAddForm
		src  service.OpenAPISource
		file []byte
		has  bool
	)
	if r.ContentLength > openAPIMaxText+uploadOverhead {
		return f, src, openAPITooLarge()
	}
	r.Body = http.MaxBytesReader(w, r.Body, openAPIMaxText+uploadOverhead)
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "multipart/form-data" {
		var err error
		if f, file, has, err = readOpenAPIMultipart(r); err != nil {
			return f, src, err
		}
	} else {
		if err := r.ParseForm(); err != nil {
			return f, src, quire.Invalid("", "could not be read")
		}
		f = openAPIAddForm{Slug: r.PostFormValue("slug"), URL: r.PostFormValue("url")}
	}
	f.Slug, f.URL = strings.TrimSpace(f.Slug), strings.TrimSpace(f.URL)
	switch {
	case f.Slug == "":
		return f, src, quire.Invalid("slug", "must not be empty")
	case len(f.Slug) > openAPIMaxSlug:
		return f, src, quire.Invalid("slug", "must be at most %d characters", openAPIMaxSlug)
	case !openAPISlug.MatchString(f.Slug):
		return f, src, quire.Invalid("slug", "must be lowercase letters and digits, words joined by single hyphens (such as petstore or billing-api)")
	case f.URL != "" && has:
		return f, src, quire.Invalid("source", "give a URL or a file, not both")
	case f.URL == "" && !has:
		return f, src, quire.Invalid("source", "give a URL or choose a file")
	case len(f.URL) > openAPIMaxURL:
		return f, src, quire.Invalid("url", "must be at most %d characters", openAPIMaxURL)
	case has && !utf8.Valid(file):
		return f, src, quire.Invalid("file", "must be a text file (YAML or JSON) in UTF-8")
	}
	src.URL, src.Text = f.URL, string(file)
	return f, src, nil
}

// readOpenAPIMultipart reads the multipart add form part by part: the
// slug and URL, and the file, bounded. has says a file was chosen.
func readOpenAPIMultipart(r *http.Request) (f openAPIAddForm, file []byte, has bool, err error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return f, nil, false, quire.Invalid("file", "the upload is not a valid multipart body")
	}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return f, file, has, nil
		}
		if err != nil {
			return f, nil, false, openAPIPartErr(err)
		}
		switch name := part.FormName(); {
		case name == "slug" || name == "url":
			b, err := io.ReadAll(io.LimitReader(part, openAPIMaxField))
			if err != nil {
				return f, nil, false, openAPIPartErr(err)
			}
			if name == "slug" {
				f.Slug = string(b)
			} else {
				f.URL = string(b)
			}
		case name == "file" && part.FileName() != "":
			b, err := io.ReadAll(io.LimitReader(part, openAPIMaxText+1))
			if err != nil {
				return f, nil, false, openAPIPartErr(err)
			}
			if len(b) > openAPIMaxText {
				return f, nil, false, openAPITooLarge()
			}
			file, has = b, true
		}
		_ = part.Close()
	}
}

// openAPITooLarge is the error of a file over the limit of a
// specification's text.
func openAPITooLarge() error {
	return &quire.Error{Code: quire.ETOOLARGE, Field: "file",
		Message: "is larger than " + sizeText(openAPIMaxText) + ", the most a specification may hold"}
}

// openAPIPartErr names the upload's problem: a body over the limit, or
// one that is not multipart as it says.
func openAPIPartErr(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return openAPITooLarge()
	}
	return quire.Invalid("file", "the upload is not a valid multipart body")
}

// changeOpenAPISpec makes change to the page's specification, then goes
// back to its page with the notice of form (?done=form); a change
// refused for a field draws the page again, naming it in form.
func (a *App) changeOpenAPISpec(w http.ResponseWriter, r *http.Request, form string,
	change func(ctx context.Context, specs *service.OpenAPISpecs, orgID, slug string) error) error {
	specs, err := a.openAPIService()
	if err != nil {
		return err
	}
	orgID, slug := r.PathValue("organizationId"), r.PathValue("specSlug")
	err = change(r.Context(), specs, orgID, slug)
	if st, ok := openAPIFormState(form, err); ok {
		return a.drawOpenAPISpec(w, r, formStatus(err), st)
	} else if err != nil {
		return err
	}
	http.Redirect(w, r, openAPISpecPath(orgID, slug)+"?done="+form, http.StatusSeeOther)
	return nil
}

// setOpenAPIVisibility changes who may read a specification's files
// without a token.
func (a *App) setOpenAPIVisibility(w http.ResponseWriter, r *http.Request) error {
	return a.changeOpenAPISpec(w, r, "visibility", func(ctx context.Context, specs *service.OpenAPISpecs, orgID, slug string) error {
		vis := quire.OpenAPIVisibility(r.PostFormValue("visibility"))
		if vis != quire.OpenAPIPrivate && vis != quire.OpenAPIPublic {
			return quire.Invalid("visibility", "choose private or public")
		}
		_, err := specs.Update(ctx, orgID, slug, &vis, nil)
		return err
	})
}

// refreshOpenAPISpec fetches a specification given by URL again now,
// its whole source as if new (no validators of the last answer), and
// processes it.
func (a *App) refreshOpenAPISpec(w http.ResponseWriter, r *http.Request) error {
	return a.changeOpenAPISpec(w, r, "refresh", func(ctx context.Context, specs *service.OpenAPISpecs, orgID, slug string) error {
		spec, err := specs.Get(ctx, orgID, slug)
		if err != nil {
			return err
		}
		if spec.SourceURL == "" {
			return quire.Invalid("source", "is an uploaded file: there is no URL to fetch again")
		}
		_, err = specs.Update(ctx, orgID, slug, nil, &service.OpenAPISource{URL: spec.SourceURL})
		return err
	})
}

// deleteOpenAPISpec deletes a specification and its versions once
// confirmed; without the confirmation (no script asked) it draws the
// page that asks.
func (a *App) deleteOpenAPISpec(w http.ResponseWriter, r *http.Request) error {
	specs, err := a.openAPIService()
	if err != nil {
		return err
	}
	ctx := r.Context()
	orgID, slug := r.PathValue("organizationId"), r.PathValue("specSlug")
	spec, err := specs.Get(ctx, orgID, slug)
	if err != nil {
		return err
	}
	if r.PostFormValue("confirm") != "yes" {
		return a.drawConfirm(w, r, orgID, confirmView{Title: "Delete " + spec.Slug, Section: "openapi",
			Heading: "Delete the specification “" + spec.Slug + "”?",
			Text:    "Its versions are deleted with it. Pages showing its operations show a note instead.",
			Button:  "Delete specification", Back: openAPISpecPath(orgID, spec.Slug), Danger: true})
	}
	ok, err := specs.Delete(ctx, orgID, slug)
	if err != nil {
		return err
	}
	if !ok {
		return quire.NotFound("OpenAPI specification")
	}
	http.Redirect(w, r, openAPIListPath(orgID)+"?done=deleted", http.StatusSeeOther)
	return nil
}
