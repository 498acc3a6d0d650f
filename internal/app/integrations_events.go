package app

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"time"

	"quire/internal/quire"
	"quire/internal/service"
)

// integrationEventsPageSize is how many events a page of the list shows.
const integrationEventsPageSize = 20

// eventRow is an event of an integration as its pages show it.
type eventRow struct {
	ID, URL string
	// Type is the event's type, from its payload.
	Type string
	// Status words the outcome of its last delivery; Failed says it
	// failed.
	Status string
	Failed bool
	At     time.Time
	// Where says which installation it was sent for.
	Where string
}

// eventsData is what the list of an integration's events shows.
type eventsData struct {
	Title, Icon, Back string
	Rows              []eventRow
	// Older is the address of the next page, "" on the last; Newest
	// that of the first, "" on it.
	Older, Newest string
}

// eventData is what an event's page shows: the event, the request it
// was (its payload) and the logs of its last delivery.
type eventData struct {
	Title, Icon, Back string
	Event             eventRow
	Request           string
	Logs              []quire.ScriptLog
}

// integrationEvents lists the integration's delivered events, newest
// first, a page at a time, to those who speak for it, as the API's list
// of events does: the events of every installation, each saying whether
// it is this organization's.
func (a *App) integrationEvents(w http.ResponseWriter, r *http.Request) error {
	ints, ii, err := a.installed(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	in, inst := ii.Integration, ii.Installation
	cursor := r.URL.Query().Get("page")
	l, err := ints.Events(ctx, userFrom(ctx), in.Name, quire.Page{Cursor: cursor, Limit: integrationEventsPageSize})
	if err != nil {
		return err
	}
	base := integrationPath(inst.OrgID, in.Name, "events")
	d := eventsData{Title: in.Manifest.Title, Icon: integrationIcon(ints, in), Back: integrationPath(inst.OrgID, in.Name)}
	names := eventPlaces{ints: ints}
	for _, ev := range l.Items {
		d.Rows = append(d.Rows, names.row(r, inst, base, ev))
	}
	if l.Next != "" {
		d.Older = base + "?page=" + url.QueryEscape(l.Next)
	}
	if cursor != "" {
		d.Newest = base
	}
	sh, err := a.shell(r, inst.OrgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section = "Events of "+in.Manifest.Title, "integrations"
	return a.render(w, r, http.StatusOK, "integration_events", sh, d)
}

// integrationEvent shows an event of the integration, to those who speak
// for it, as the API answers it: the event, its request, the outcome and
// the logs of its last delivery.
func (a *App) integrationEvent(w http.ResponseWriter, r *http.Request) error {
	ints, ii, err := a.installed(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	in, inst := ii.Integration, ii.Installation
	ev, err := ints.Event(ctx, userFrom(ctx), in.Name, r.PathValue("eventId"))
	if err != nil {
		return err
	}
	names := eventPlaces{ints: ints}
	d := eventData{Title: in.Manifest.Title, Icon: integrationIcon(ints, in), Back: integrationPath(inst.OrgID, in.Name, "events"),
		Event: names.row(r, inst, integrationPath(inst.OrgID, in.Name, "events"), ev), Request: indentJSON(ev.Payload), Logs: ev.Logs}
	sh, err := a.shell(r, inst.OrgID)
	if err != nil {
		return err
	}
	sh.Title, sh.Section = d.Event.Type+" · "+in.Manifest.Title, "integrations"
	return a.render(w, r, http.StatusOK, "integration_event", sh, d)
}

// eventPlaces names the spaces and sites of events, reading each once.
type eventPlaces struct {
	ints  *service.Integrations
	names map[string]string
}

// row describes an event; inst is the installation of the page's
// organization and base the address of the events' list.
func (p *eventPlaces) row(r *http.Request, inst *quire.IntegrationInstallation, base string, ev *quire.IntegrationEvent) eventRow {
	var payload struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(ev.Payload, &payload) // a payload the server wrote
	row := eventRow{ID: ev.ID, URL: base + "/" + url.PathEscape(ev.ID), Type: payload.Type, At: ev.CreatedAt,
		Status: "Succeeded", Failed: ev.Status == quire.EventFailed}
	if row.Failed {
		row.Status = "Failed"
	}
	switch {
	case ev.InstallationID == "":
		row.Where = "No installation"
	case ev.InstallationID != inst.ID:
		row.Where = "Another organization’s installation"
	case ev.Space != "":
		row.Where = "The space " + p.name(r, quire.OnSpace, ev.Space)
	case ev.Site != "":
		row.Where = "The site " + p.name(r, quire.OnSite, ev.Site)
	default:
		row.Where = "This installation"
	}
	return row
}

// name returns the quoted title of a space or site, or its id when it
// is gone.
func (p *eventPlaces) name(r *http.Request, kind quire.InstallationTarget, id string) string {
	key := string(kind) + ":" + id
	if n, ok := p.names[key]; ok {
		return n
	}
	if p.names == nil {
		p.names = map[string]string{}
	}
	n := id
	if kind == quire.OnSpace {
		if sp, err := p.ints.SpaceOf(r.Context(), id); err == nil {
			n = "“" + sp.Title + "”"
		}
	} else if s, err := p.ints.SiteOf(r.Context(), id); err == nil {
		n = "“" + s.Title + "”"
	}
	p.names[key] = n
	return n
}

// indentJSON returns JSON indented for reading, or as it is when it does
// not parse.
func indentJSON(raw []byte) string {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}
