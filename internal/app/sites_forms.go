package app

import (
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"quire/internal/quire"
)

// Bounds of the site forms' fields, as the API's schema sets them.
const (
	maxSiteTitle    = 128
	maxGroupTitle   = 100
	maxSiteIcon     = 50
	maxSitePath     = 100
	maxSiteCond     = 1024
	maxSectionDesc  = 256
	maxShareName    = 50
	maxFallbackURL  = 2048
	maxSiteSpacesIn = 100
)

// sitesNotice returns the confirmation of a site change the page was
// redirected after, by the key of its ?done= parameter.
func sitesNotice(r *http.Request) string {
	switch r.URL.Query().Get("done") {
	case "site-created":
		return "Site created."
	case "site-saved":
		return "The site’s settings were saved."
	case "site-deleted":
		return "Site deleted. The spaces it published stay."
	case "published":
		return "Site published."
	case "unpublished":
		return "Site unpublished: readers no longer reach it."
	case "section-added":
		return "Section added."
	case "section-saved":
		return "Section saved."
	case "section-deleted":
		return "Section deleted."
	case "group-added":
		return "Section group added."
	case "group-saved":
		return "Section group saved."
	case "group-deleted":
		return "Section group deleted. Its sections stay in the site."
	case "space-added":
		return "Space added to the site."
	case "space-saved":
		return "Site space saved."
	case "space-removed":
		return "Space removed from the site. The space itself stays."
	case "moved":
		return "Moved."
	case "link-created":
		return "Share link created. Copy it from the list of share links."
	case "link-off":
		return "Share link turned off: it opens nothing until turned on again."
	case "link-on":
		return "Share link turned on."
	case "link-deleted":
		return "Share link deleted."
	case "auth-saved":
		return "Visitor authentication saved."
	case "key-regenerated":
		return "New signing key made. Tokens signed with the old one no longer open the site."
	}
	return ""
}

// siteFieldLabel names a field of the site forms in a message.
func siteFieldLabel(field string) string {
	switch {
	case field == "title":
		return "Title"
	case field == "visibility":
		return "Visibility"
	case strings.HasPrefix(field, "spaces"), field == "spaceId":
		return "Space"
	case field == "sectionId", strings.HasPrefix(field, "sections"):
		return "Section"
	case field == "icon":
		return "Icon"
	case field == "path":
		return "Path"
	case field == "condition":
		return "Condition"
	case field == "description":
		return "Description"
	case field == "name":
		return "Name"
	case field == "fallbackURL":
		return "Fallback URL"
	case field == "target":
		return "Next to"
	case field == "place", strings.HasPrefix(field, "position"):
		return "Position"
	case field == "parent":
		return "Group"
	case field == "":
		return "The form"
	}
	return field
}

// siteFormState turns an invalid field's error into the state of form
// to draw again, the field named first in the message; ok is false for
// any other error.
func siteFormState(form string, err error) (*FormState, bool) {
	field, msg, ok := formError(err)
	if !ok {
		return nil, false
	}
	switch {
	case strings.HasPrefix(field, "spaces"):
		field = "spaces"
	case strings.HasPrefix(field, "sections"):
		field = "sections"
	case strings.HasPrefix(field, "position"):
		field = "place"
	}
	msg = strings.TrimSuffix(msg, ".")
	return &FormState{Form: form, Field: field, Message: siteFieldLabel(field) + ": " + msg + "."}, true
}

// typedForm keeps what a refused form held, for the page to show it
// again; other forms of the page show what is stored.
type typedForm struct {
	State *FormState
	Typed url.Values
}

// Val returns the value typed in field when form was the one refused,
// else stored.
func (t typedForm) Val(form, field, stored string) string {
	if t.State == nil || t.State.Form != form {
		return stored
	}
	return t.Typed.Get(field)
}

// Has reports whether value was among those typed in field when form
// was the one refused, else whether it is among stored.
func (t typedForm) Has(form, field, value string, stored bool) bool {
	if t.State == nil || t.State.Form != form {
		return stored
	}
	for _, v := range t.Typed[field] {
		if v == value {
			return true
		}
	}
	return false
}

// textField reads a form's text field, trimmed, refusing it beyond max
// characters (and when empty if required).
func textField(r *http.Request, name, field string, max int, required bool) (string, error) {
	v := strings.TrimSpace(r.PostFormValue(name))
	if required && v == "" {
		return "", quire.Invalid(field, "must not be empty")
	}
	if utf8.RuneCountInString(v) > max {
		return "", quire.Invalid(field, "must be at most %d characters", max)
	}
	return v, nil
}

// sitePath is the app's page of the site named by the request's path,
// with a ?done= notice key when given.
func sitePath(r *http.Request, done string) string {
	p := "/app/o/" + url.PathEscape(r.PathValue("organizationId")) + "/sites/" + url.PathEscape(r.PathValue("siteId"))
	if done != "" {
		p += "?done=" + done
	}
	return p
}

// Refused returns the message of form when it was the one refused, "" for
// any other.
func (t typedForm) Refused(form string) string {
	if t.State == nil || t.State.Form != form {
		return ""
	}
	return t.State.Message
}

// spaceChoice is a list of spaces to choose from, with the one chosen.
type spaceChoice struct {
	List   []spaceOption
	Chosen string
}
