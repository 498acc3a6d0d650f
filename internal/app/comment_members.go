package app

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"quire/internal/quire"
)

// maxMentionChoices is how many members the mention suggestions list.
const maxMentionChoices = 8

// mentionChoice is someone a mention may name, as the composer's
// suggestions list them: the name shown, the email when the caller may
// see it ("" otherwise, which the script shows as nothing), and the
// Markdown to insert.
type mentionChoice struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Email    string `json:"email"`
	Markdown string `json:"markdown"`
}

// mentionMarkdown writes a mention of a member named name at target, its
// label escaped so that any name reads back as the same mention.
func mentionMarkdown(name, target string) string {
	label := strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`, "\n", " ", "\r", " ").Replace(name)
	return "[@" + label + "](" + target + ` "mention")`
}

// mentionMembers answers the people who can read the space whose name
// (or, for a member of the organization, email) holds q, for the
// composer's "@" suggestions: those a mention would tell.
func (a *App) mentionMembers(w http.ResponseWriter, r *http.Request) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if utf8.RuneCountInString(q) > 100 {
		return quire.Invalid("q", "must be at most 100 characters")
	}
	l, err := a.svc.MentionCandidates(r.Context(), commenterOf(r.Context()), sp.ID, q, maxMentionChoices)
	if err != nil {
		return err
	}
	m := newMentions(sp.OrgID)
	out := make([]mentionChoice, 0, len(l))
	for _, c := range l {
		out = append(out, mentionChoice{ID: c.ID, Name: c.Name, Email: c.Email, Markdown: mentionMarkdown(c.Name, m.prefix+c.ID)})
	}
	w.Header().Set("Content-Type", "application/json")
	return json.NewEncoder(w).Encode(out)
}

// renderPartial draws one of the templates every page shares (a partial)
// alone, for a script to put in place.
func (a *App) renderPartial(w http.ResponseWriter, name string, data any) error {
	t, err := a.views.page("page")
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, name, data); err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	_, err = w.Write(buf.Bytes())
	return err
}
