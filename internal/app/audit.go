package app

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"quire/internal/quire"
)

// auditRow is one event of the audit log page.
type auditRow struct {
	At     time.Time
	Who    string
	What   string
	Target string
	Detail string
}

// auditOption is a choice of a filter's select.
type auditOption struct {
	Value, Label string
	Selected     bool
}

// auditPage is what the audit log page shows.
type auditPage struct {
	OrgID   string
	Rows    []auditRow
	Actions []auditOption
	People  []auditOption
	From    string
	To      string
	// Older is the address of the next page, "" on the last; Export the
	// address of the JSON lines of every matching event.
	Older  string
	Export string
}

// auditLog lists an organization's audit events, newest first, with a
// filter form of action, person and dates (the To day included).
func (a *App) auditLog(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	orgID := r.PathValue("organizationId")
	sh, err := a.shell(r, orgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section = "Audit log", "audit"
	q := r.URL.Query()
	f := quire.AuditFilter{Action: quire.AuditAction(q.Get("action")), Actor: q.Get("person")}
	p := &auditPage{OrgID: orgID, From: q.Get("from"), To: q.Get("to")}
	if d, err := time.Parse(time.DateOnly, p.From); err == nil {
		f.Since = d
	}
	if d, err := time.Parse(time.DateOnly, p.To); err == nil {
		f.Until = d.AddDate(0, 0, 1)
	}
	l, err := a.svc.AuditEvents(ctx, userFrom(ctx), orgID, f, quire.Page{Cursor: q.Get("page")})
	if err != nil {
		return err
	}
	members, err := a.svc.Members(ctx, orgID, quire.MemberFilter{}, quire.Page{Limit: quire.MaxLimit})
	if err != nil {
		return err
	}
	names := map[string]string{}
	p.People = append(p.People, auditOption{Label: "Anyone"})
	for _, m := range members.Items {
		names[m.User.ID] = m.User.DisplayName
		p.People = append(p.People, auditOption{Value: m.User.ID, Label: m.User.DisplayName, Selected: m.User.ID == f.Actor})
	}
	name := func(id string) string {
		switch {
		case id == "":
			return "The server"
		case names[id] != "":
			return names[id]
		}
		return id
	}
	p.Actions = append(p.Actions, auditOption{Label: "Any action"})
	for _, act := range quire.AuditActions() {
		p.Actions = append(p.Actions, auditOption{Value: string(act), Label: act.Label(), Selected: act == f.Action})
	}
	for _, e := range l.Items {
		row := auditRow{At: e.CreatedAt, Who: name(e.ActorID), What: e.Action.Label(), Detail: auditDetail(e)}
		switch {
		case e.TargetKind == quire.AuditTargetUser:
			row.Target = name(e.TargetID)
		case e.Details["title"] != "":
			row.Target = e.Details["title"]
		case e.Details["label"] != "":
			row.Target = e.Details["label"]
		case e.Details["integration"] != "":
			row.Target = e.Details["integration"]
		case e.Details["name"] != "":
			row.Target = e.Details["name"]
		default:
			row.Target = strings.ReplaceAll(e.TargetKind, "_", " ") + " " + e.TargetID
		}
		p.Rows = append(p.Rows, row)
	}
	keep := url.Values{}
	for _, k := range []string{"action", "person", "from", "to"} {
		if v := q.Get(k); v != "" {
			keep.Set(k, v)
		}
	}
	if l.Next != "" {
		older := url.Values{}
		for k, v := range keep {
			older[k] = v
		}
		older.Set("page", l.Next)
		p.Older = "/app/o/" + orgID + "/audit?" + older.Encode()
	}
	export := url.Values{"format": {"jsonl"}}
	if f.Action != "" {
		export.Set("action", string(f.Action))
	}
	if f.Actor != "" {
		export.Set("actor", f.Actor)
	}
	if !f.Since.IsZero() {
		export.Set("since", f.Since.Format(time.RFC3339))
	}
	if !f.Until.IsZero() {
		export.Set("until", f.Until.Format(time.RFC3339))
	}
	p.Export = "/v1/orgs/" + orgID + "/audit-events?" + export.Encode()
	return a.render(w, r, http.StatusOK, "audit", sh, p)
}

// auditDetail words an event's details: a change as "from → to", other
// facts as "key: value".
func auditDetail(e *quire.AuditEvent) string {
	if from, to := e.Details["from"], e.Details["to"]; from != "" || to != "" {
		return from + " → " + to
	}
	var parts []string
	for _, k := range []string{"role", "via"} {
		if v := e.Details[k]; v != "" {
			parts = append(parts, k+": "+v)
		}
	}
	return strings.Join(parts, ", ")
}
