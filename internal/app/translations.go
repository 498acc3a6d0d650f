package app

import (
	"net/http"
	"net/url"
	"strings"

	"quire/internal/quire"
	"quire/internal/service"
)

// translationsPerPage is how many translations the list shows at once.
const translationsPerPage = 20

// languageOption is a language translations go from or into: its code,
// as the API names it, and its name in English.
type languageOption struct {
	Code, Name string
}

// translationLanguages are the languages of the API's translations, in
// the API's order.
func translationLanguages() []languageOption {
	return []languageOption{
		{"en", "English"}, {"fr", "French"}, {"de", "German"}, {"es", "Spanish"}, {"it", "Italian"},
		{"pt", "Portuguese"}, {"pt-br", "Brazilian Portuguese"}, {"ru", "Russian"}, {"ja", "Japanese"},
		{"zh", "Chinese"}, {"yue", "Cantonese"}, {"ko", "Korean"}, {"ar", "Arabic"}, {"hi", "Hindi"},
		{"nl", "Dutch"}, {"pl", "Polish"}, {"tr", "Turkish"}, {"sv", "Swedish"}, {"no", "Norwegian"},
		{"da", "Danish"}, {"fi", "Finnish"}, {"el", "Greek"}, {"cs", "Czech"}, {"hu", "Hungarian"},
		{"ro", "Romanian"}, {"th", "Thai"}, {"vi", "Vietnamese"}, {"id", "Indonesian"}, {"ms", "Malay"},
		{"he", "Hebrew"}, {"uk", "Ukrainian"}, {"sk", "Slovak"}, {"bg", "Bulgarian"}, {"hr", "Croatian"},
		{"lt", "Lithuanian"}, {"lv", "Latvian"}, {"et", "Estonian"}, {"sl", "Slovenian"},
	}
}

// languageName names a language code in English; an unknown code is
// shown as it is.
func languageName(code string) string {
	for _, l := range translationLanguages() {
		if l.Code == code {
			return l.Name
		}
	}
	return code
}

// knownLanguage reports whether code is one of the API's languages.
func knownLanguage(code string) bool {
	for _, l := range translationLanguages() {
		if l.Code == code {
			return true
		}
	}
	return false
}

// translationsService returns the translation service, or says the
// server has none.
func (a *App) translationsService() (*service.Translations, error) {
	if a.cfg.Translations == nil {
		return nil, notAvailable("Translations are")
	}
	return a.cfg.Translations, nil
}

// translationsPath is the address of an organization's translations,
// or of one of them with the rest of its path.
func translationsPath(orgID string, rest ...string) string {
	p := "/app/o/" + orgID + "/translations"
	for _, s := range rest {
		p += "/" + url.PathEscape(s)
	}
	return p
}

// spaceLink is a space a translation names, as the caller sees it: its
// title and address when they may open it, neither when they may not
// (or it is gone).
type spaceLink struct {
	ID, Title, Emoji, URL string
}

// spaceLinks maps the spaces of the sidebar's tree that the caller may
// read by id.
func spaceLinks(nodes []*TreeNode) map[string]spaceLink {
	out := map[string]spaceLink{}
	var walk func(nodes []*TreeNode)
	walk = func(nodes []*TreeNode) {
		for _, n := range nodes {
			if n.Space && n.Level >= read {
				out[n.ID] = spaceLink{ID: n.ID, Title: n.Title, Emoji: n.Emoji, URL: spacePath(n.ID)}
			}
			walk(n.Children)
		}
	}
	walk(nodes)
	return out
}

// translationRow is a translation with what the pages show of it.
type translationRow struct {
	*service.TranslationView
	// Source and Target are its spaces as the caller sees them; URL
	// the address of its page.
	Source, Target spaceLink
	URL            string
}

// newTranslationRow describes a translation with the spaces the caller
// sees.
func newTranslationRow(orgID string, v *service.TranslationView, spaces map[string]spaceLink) translationRow {
	row := translationRow{TranslationView: v, URL: translationsPath(orgID, v.ID)}
	row.Source, row.Target = spaces[v.SourceSpace], spaces[v.TargetSpace]
	row.Source.ID, row.Target.ID = v.SourceSpace, v.TargetSpace
	return row
}

// SourceName names the language of the source.
func (r translationRow) SourceName() string { return languageName(r.SourceLanguage) }

// LanguageName names the language the translation goes into.
func (r translationRow) LanguageName() string { return languageName(r.Language) }

// StatusName is the translation's status as the API reports it, worded.
func (r translationRow) StatusName() string {
	switch r.Status() {
	case service.TranslationRunning:
		return "Running"
	case service.TranslationCompleted:
		return "Completed"
	}
	return "Pending"
}

// StatusDetail says why a translation is pending, and whether its last
// run failed.
func (r translationRow) StatusDetail() string {
	switch {
	case r.State == quire.TranslationQueued:
		return "A run is queued."
	case r.State == quire.TranslationRunning:
		return "A run is under way."
	case r.Error != "":
		return "The last run failed."
	case r.Runs == 0:
		return "Not run yet."
	case r.Status() == service.TranslationPending:
		return "The source changed since the last run."
	}
	return "Up to date with the source."
}

// Completed reports whether the translation is up to date.
func (r translationRow) Completed() bool { return r.Status() == service.TranslationCompleted }

// Busy reports whether a run is queued or under way: its page reloads
// until it ends.
func (r translationRow) Busy() bool {
	return r.State == quire.TranslationQueued || r.State == quire.TranslationRunning
}

// LatestTime words how long the last run took.
func (r translationRow) LatestTime() string { return durationText(r.LatestDuration) }

// TotalTime words how long all runs took together.
func (r translationRow) TotalTime() string { return durationText(r.TotalDuration) }

// TotalPages counts the pages any run translated.
func (r translationRow) TotalPages() int { return len(r.TranslatedPages) }

// durationText words a duration of milliseconds in whole seconds, as the
// API rounds them, and minutes from one minute on.
func durationText(ms int64) string {
	s := int((ms + 500) / 1000)
	switch {
	case s < 1:
		return "under a second"
	case s < 60:
		return plural(s, "second", "seconds")
	case s%60 == 0:
		return plural(s/60, "minute", "minutes")
	}
	return plural(s/60, "minute", "minutes") + " " + plural(s%60, "second", "seconds")
}

// translationsNotice confirms the change the page was redirected after.
func translationsNotice(r *http.Request) string {
	switch r.URL.Query().Get("done") {
	case "created":
		return "Translation created. Run it to translate the source’s pages."
	case "run":
		return "Run queued."
	case "saved":
		return "Instructions saved. The next run uses them."
	case "deleted":
		return "Translation deleted. Its target space stays, with its pages."
	}
	return ""
}

// translationsData is what the translations page shows.
type translationsData struct {
	OrgID string
	Rows  []translationRow
	// Next is the address of the next page of the list, "" on the last;
	// First that of the first, "" on it.
	Next, First string
	// CanCreate offers the form to create one, with the spaces the
	// caller may translate and the languages.
	CanCreate bool
	Sources   []spaceOption
	Languages []languageOption
	Form      translationForm
	State     *FormState
	Notice    string
}

// translations lists an organization's translations and, to those who
// may, offers the form to create one.
func (a *App) translations(w http.ResponseWriter, r *http.Request) error {
	return a.drawTranslations(w, r, http.StatusOK, nil, nil)
}

// drawTranslations draws the translations page; typed is a refused
// create form, shown again with state's message beside its field.
func (a *App) drawTranslations(w http.ResponseWriter, r *http.Request, status int, typed *translationForm, state *FormState) error {
	tr, err := a.translationsService()
	if err != nil {
		return err
	}
	ctx := r.Context()
	orgID := r.PathValue("organizationId")
	cursor := r.URL.Query().Get("page")
	if r.Method != http.MethodGet {
		cursor = ""
	}
	l, err := tr.List(ctx, orgID, quire.Page{Cursor: cursor, Limit: translationsPerPage})
	if err != nil {
		return err
	}
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section = "Translations", "translations"
	spaces := spaceLinks(sh.Tree)
	d := translationsData{OrgID: orgID, CanCreate: levelFrom(ctx) >= create, Languages: translationLanguages(),
		Form: translationForm{SourceLanguage: "en"}, State: state, Notice: translationsNotice(r)}
	for _, v := range l.Items {
		d.Rows = append(d.Rows, newTranslationRow(orgID, v, spaces))
	}
	if l.Next != "" {
		d.Next = translationsPath(orgID) + "?page=" + url.QueryEscape(l.Next)
	}
	if cursor != "" {
		d.First = translationsPath(orgID)
	}
	if d.CanCreate {
		d.Sources = spaceChoices(sh.Tree, "")
	}
	if typed != nil {
		d.Form = *typed
	}
	return a.render(w, r, status, "translations", sh, d)
}

// createTranslation creates a translation from the form, and its target
// space, then opens its page; a refused form is drawn again naming its
// field, and nothing is created.
func (a *App) createTranslation(w http.ResponseWriter, r *http.Request) error {
	tr, err := a.translationsService()
	if err != nil {
		return err
	}
	ctx := r.Context()
	orgID := r.PathValue("organizationId")
	f := typedTranslationForm(r)
	in, err := f.createInput()
	var v *service.TranslationView
	if err == nil {
		v, err = tr.Create(ctx, userFrom(ctx), orgID, in)
	}
	if st, ok := translationFormState("create", err); ok {
		return a.drawTranslations(w, r, http.StatusUnprocessableEntity, &f, st)
	} else if err != nil {
		return err
	}
	http.Redirect(w, r, translationsPath(orgID, v.ID)+"?done=created", http.StatusSeeOther)
	return nil
}

// translationFieldLabel names a field of the translation forms in a
// message.
func translationFieldLabel(field string) string {
	switch field {
	case "source":
		return "Source space"
	case "sourceLanguage":
		return "Source language"
	case "language":
		return "Language"
	case "instructions":
		return "Instructions"
	}
	return "The form"
}

// translationFormState turns an invalid field's error, or the conflict
// of a second translation of a space into one language, into the state
// of form to draw again, the field named in the message; ok is false for
// any other error.
func translationFormState(form string, err error) (*FormState, bool) {
	field, msg, ok := formError(err)
	switch {
	case quire.ErrorCode(err) == quire.ECONFLICT:
		field, msg, ok = "language", "is taken: "+quire.ErrorMessage(err), true
	case !ok:
		return nil, false
	case field == "source.space":
		field, msg = "source", "is not a space of this organization that you may read"
	case field == "source.language":
		field = "sourceLanguage"
	}
	msg = strings.TrimSuffix(msg, ".")
	return &FormState{Form: form, Field: field, Message: translationFieldLabel(field) + " " + msg + "."}, true
}
