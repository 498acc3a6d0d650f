package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"quire/internal/quire"
)

// auditExportMax bounds the events one JSON-lines export writes.
const auditExportMax = 100_000

// ndjson is the media type of JSON lines.
const ndjson = "application/x-ndjson"

// auditEventJSON is the AuditEvent object.
type auditEventJSON struct {
	Object    string            `json:"object" enum:"audit-event"`
	ID        int64             `json:"id" doc:"Ascends in the order events are recorded"`
	Action    string            `json:"action" enum:"member.added,member.removed,member.role_changed,member.disabled,member.enabled,space.visibility_changed,site.published,site.unpublished,site.visibility_changed,saml.provider_created,saml.provider_updated,saml.provider_deleted,sso.enforced_changed,token.created,token.revoked,integration.installed,integration.uninstalled,organization.title_changed,organization.logo_changed,organization.default_role_changed,organization.email_domains_changed,organization.invite_links_changed,organization.merge_rules_changed"`
	Actor     string            `json:"actor" doc:"User id of who acted; empty when the server acted on its own"`
	Target    auditTargetJSON   `json:"target"`
	Details   map[string]string `json:"details" doc:"A few facts of the change, such as the old and new role"`
	CreatedAt string            `json:"createdAt" format:"date-time"`
}

// auditTargetJSON names what an audit event acted on.
type auditTargetJSON struct {
	Kind string `json:"kind" enum:"user,space,site,saml_provider,organization,token,installation,"`
	ID   string `json:"id"`
}

// auditEventOut converts an audit event.
func auditEventOut(e *quire.AuditEvent) auditEventJSON {
	return auditEventJSON{Object: "audit-event", ID: e.ID, Action: string(e.Action), Actor: e.ActorID,
		Target: auditTargetJSON{Kind: e.TargetKind, ID: e.TargetID}, Details: e.Details, CreatedAt: timestamp(e.CreatedAt)}
}

// auditListParams are the filters of the audit log.
type auditListParams struct {
	OrgPath
	ListParams
	Action string `query:"action" enum:"member.added,member.removed,member.role_changed,member.disabled,member.enabled,space.visibility_changed,site.published,site.unpublished,site.visibility_changed,saml.provider_created,saml.provider_updated,saml.provider_deleted,sso.enforced_changed,token.created,token.revoked,integration.installed,integration.uninstalled,organization.title_changed,organization.logo_changed,organization.default_role_changed,organization.email_domains_changed,organization.invite_links_changed,organization.merge_rules_changed" doc:"Only events of this action"`
	Actor  string `query:"actor" maxLength:"64" doc:"Only events of this user id"`
	Since  string `query:"since" format:"date-time" doc:"Only events recorded at or after this time"`
	Until  string `query:"until" format:"date-time" doc:"Only events recorded before this time"`
	Format string `query:"format" enum:"json,jsonl" doc:"jsonl answers every matching event (at most 100,000), one JSON object a line, newest first, without paging"`
	Accept string `header:"Accept" doc:"application/x-ndjson answers as format=jsonl does"`
}

// filter reads the audit filters; the declarations checked their form.
func (in *auditListParams) filter() (quire.AuditFilter, error) {
	f := quire.AuditFilter{Action: quire.AuditAction(in.Action), Actor: in.Actor}
	for _, p := range []struct {
		name, v string
		dst     *time.Time
	}{{"since", in.Since, &f.Since}, {"until", in.Until, &f.Until}} {
		if p.v == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, p.v)
		if err != nil {
			return f, quire.Invalid(p.name, "must be a date-time such as 2024-03-01T12:00:00Z")
		}
		*p.dst = t
	}
	return f, nil
}

// jsonLines reports whether the caller asked for JSON lines.
func (in *auditListParams) jsonLines() bool {
	return in.Format == "jsonl" || (in.Format == "" && strings.Contains(in.Accept, ndjson))
}

// listAuditEvents answers a page of the audit log, or with JSON lines
// every matching event up to auditExportMax, streamed a page at a time.
// The first page is read before anything is written, so that a refusal
// or a bad filter answers its own status.
func (s *Server) listAuditEvents(ctx context.Context, in *auditListParams) (*huma.StreamResponse, error) {
	f, err := in.filter()
	if err != nil {
		return nil, err
	}
	u := userFrom(ctx)
	if !in.jsonLines() {
		l, err := s.svc.AuditEvents(ctx, u, in.OrganizationID, f, in.page())
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(listJSON(l, auditEventOut))
		if err != nil {
			return nil, err
		}
		return &huma.StreamResponse{Body: func(hctx huma.Context) {
			hctx.SetHeader("Content-Type", "application/json")
			hctx.SetStatus(http.StatusOK)
			_, _ = hctx.BodyWriter().Write(b)
		}}, nil
	}
	p := quire.Page{Limit: quire.MaxLimit}
	first, err := s.svc.AuditEvents(ctx, u, in.OrganizationID, f, p)
	if err != nil {
		return nil, err
	}
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		hctx.SetHeader("Content-Type", ndjson)
		hctx.SetHeader("Content-Disposition", `attachment; filename="audit-events.jsonl"`)
		hctx.SetStatus(http.StatusOK)
		w := hctx.BodyWriter()
		enc := json.NewEncoder(w)
		written := 0
		for l := first; ; {
			for _, e := range l.Items {
				if written == auditExportMax || enc.Encode(auditEventOut(e)) != nil {
					return
				}
				written++
			}
			if fl, ok := w.(http.Flusher); ok {
				fl.Flush()
			}
			if l.Next == "" || written == auditExportMax {
				return
			}
			p.Cursor = l.Next
			var err error
			if l, err = s.svc.AuditEvents(ctx, u, in.OrganizationID, f, p); err != nil {
				// The status is sent: a short answer is all that is left.
				s.log.ErrorContext(ctx, "audit export", "err", err)
				return
			}
		}
	}}, nil
}

// describeAuditResponses documents the answers of the audit log: a
// streamed handler leaves its response without a schema, so the list's
// and the JSON lines' are set here.
func describeAuditResponses(api huma.API, path string) {
	item := api.OpenAPI().Paths[path]
	if item == nil || item.Get == nil {
		return
	}
	reg := api.OpenAPI().Components.Schemas
	list := reg.Schema(reflect.TypeOf(listOf[auditEventJSON]{}), true, "")
	event := reg.Schema(reflect.TypeOf(auditEventJSON{}), true, "")
	item.Get.Responses["200"] = &huma.Response{
		Description: "A page of the audit log, or with JSON lines every matching event",
		Content: map[string]*huma.MediaType{
			"application/json": {Schema: list},
			ndjson:             {Schema: event},
		},
	}
}
