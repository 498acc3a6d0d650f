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

// mentionChoice is a member a mention may name, as the composer's
// suggestions list them: the name shown and the Markdown to insert.
type mentionChoice struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Email    string `json:"email"`
	Markdown string `json:"markdown"`
}

// mentionMembers answers the members of the space's organization whose
// name or email holds q, for the composer's "@" suggestions.
func (a *App) mentionMembers(w http.ResponseWriter, r *http.Request) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if utf8.RuneCountInString(q) > 100 {
		return quire.Invalid("q", "must be at most 100 characters")
	}
	l, err := a.svc.Members(r.Context(), sp.OrgID, quire.MemberFilter{Search: q, Sort: quire.SortJoinedAt, Order: quire.OrderAsc},
		quire.Page{Limit: maxMentionChoices})
	if err != nil {
		return err
	}
	m := newMentions(sp.OrgID)
	out := make([]mentionChoice, 0, len(l.Items))
	for _, mb := range l.Items {
		if mb.Disabled {
			continue
		}
		name := strings.NewReplacer("[", "", "]", "").Replace(mb.User.DisplayName)
		out = append(out, mentionChoice{ID: mb.User.ID, Name: mb.User.DisplayName, Email: mb.User.Email,
			Markdown: "[@" + name + "](" + m.prefix + mb.User.ID + ` "mention")`})
	}
	w.Header().Set("Content-Type", "application/json")
	return json.NewEncoder(w).Encode(out)
}

// renderPartial draws one of the templates every page shares (a partial)
// alone, for a script to put in place.
func (a *App) renderPartial(w http.ResponseWriter, name string, data any) error {
	t, ok := a.views.byName["page"]
	if !ok {
		return nil
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, name, data); err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	_, err := w.Write(buf.Bytes())
	return err
}
