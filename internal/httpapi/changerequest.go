package httpapi

import (
	"context"
	"encoding/json"
	"strconv"

	"quire/internal/quire"
	"quire/internal/service"
)

// changeRequestJSON is the ChangeRequest object.
type changeRequestJSON struct {
	Object                 string            `json:"object" enum:"change-request"`
	ID                     string            `json:"id"`
	Number                 int               `json:"number" doc:"Incremental number of the change request in its space"`
	Status                 string            `json:"status" enum:"draft,open,archived,merged"`
	Subject                string            `json:"subject" maxLength:"100"`
	Description            json.RawMessage   `json:"description,omitempty" doc:"Rich-text document"`
	CreatedBy              userJSON          `json:"createdBy"`
	CreatedAt              string            `json:"createdAt" format:"date-time"`
	UpdatedAt              string            `json:"updatedAt" format:"date-time"`
	Space                  string            `json:"space"`
	Revision               string            `json:"revision" doc:"Current revision of the change request"`
	RevisionInitial        string            `json:"revisionInitial" doc:"Space revision the change request started from"`
	RevisionMergedAncestor string            `json:"revisionMergedAncestor,omitempty" doc:"Space revision last pulled in by an update"`
	RevisionMerged         string            `json:"revisionMerged,omitempty" doc:"Space revision its merge produced"`
	Comments               int               `json:"comments" doc:"Count of open comments"`
	Outdated               bool              `json:"outdated" doc:"True when main content moved past the change request"`
	URLs                   changeRequestURLs `json:"urls"`
}

// changeRequestURLs are the URLs of a change request.
type changeRequestURLs struct {
	Location string `json:"location" format:"uri"`
	App      string `json:"app" format:"uri"`
}

// changeRequestViewOut converts a described change request.
func (s *Server) changeRequestViewOut(v service.ChangeRequestView) changeRequestJSON {
	cr := v.ChangeRequest
	return changeRequestJSON{
		Object: "change-request", ID: cr.ID, Number: cr.Number, Status: string(cr.Status), Subject: cr.Subject,
		Description: cr.Description, CreatedBy: s.userOut(v.CreatedBy),
		CreatedAt: timestamp(cr.CreatedAt), UpdatedAt: timestamp(cr.UpdatedAt), Space: cr.SpaceID,
		Revision: cr.Revision, RevisionInitial: cr.RevisionInitial,
		RevisionMergedAncestor: cr.RevisionMergedAncestor, RevisionMerged: cr.RevisionMerged,
		Comments: cr.Comments, Outdated: v.Outdated,
		URLs: changeRequestURLs{
			Location: s.urls.api("spaces", cr.SpaceID, "change-requests", cr.ID),
			App:      s.urls.app("s", cr.SpaceID, "~", "changes", strconv.Itoa(cr.Number)),
		},
	}
}

// changeRequestOut converts a change request of the space sp.
func (s *Server) changeRequestOut(ctx context.Context, cr *quire.ChangeRequest, sp *quire.Space) (changeRequestJSON, error) {
	vs, err := s.svc.ChangeRequestViews(ctx, []*quire.ChangeRequest{cr}, sp)
	if err != nil {
		return changeRequestJSON{}, err
	}
	return s.changeRequestViewOut(vs[0]), nil
}

// changeRequestInSpace converts a change request of the space named by
// the path.
func (s *Server) changeRequestInSpace(ctx context.Context, cr *quire.ChangeRequest, spaceID string) (changeRequestJSON, error) {
	sp, err := s.spaceOf(ctx, spaceID)
	if err != nil {
		return changeRequestJSON{}, err
	}
	return s.changeRequestOut(ctx, cr, sp)
}

// changeRequestListOut converts a page of change requests; known are
// spaces the caller already holds.
func (s *Server) changeRequestListOut(ctx context.Context, l *quire.List[*quire.ChangeRequest], known ...*quire.Space) (listOf[changeRequestJSON], error) {
	vs, err := s.svc.ChangeRequestViews(ctx, l.Items, known...)
	if err != nil {
		return listOf[changeRequestJSON]{}, err
	}
	views := &quire.List[service.ChangeRequestView]{Items: vs, Next: l.Next, Count: l.Count}
	return listJSON(views, s.changeRequestViewOut), nil
}

// spaceOf returns the space named by the path: the one the access check
// loaded, or a fresh read.
func (s *Server) spaceOf(ctx context.Context, id string) (*quire.Space, error) {
	if sp, ok := subjectFrom[*quire.Space](ctx); ok && sp.ID == id {
		return sp, nil
	}
	return s.svc.Space(ctx, id)
}

// ChangeRequestFilters are the filters of the change request lists.
type ChangeRequestFilters struct {
	Status      string `query:"status" enum:"draft,open,archived,merged" default:"open" doc:"Only change requests in this status"`
	Creator     string `query:"creator" doc:"Only change requests created by this user"`
	Contributor string `query:"contributor" doc:"Only change requests with contributions from this user"`
}

// filter converts the filters for the service, applying the default
// status.
func (f ChangeRequestFilters) filter() quire.ChangeRequestFilter {
	status := quire.ChangeRequestStatus(f.Status)
	if status == "" {
		status = quire.CROpen
	}
	return quire.ChangeRequestFilter{Status: status, Creator: f.Creator, Contributor: f.Contributor}
}

func (s *Server) listSpaceChangeRequests(ctx context.Context, in *struct {
	SpacePath
	ListParams
	ChangeRequestFilters
}) (*body[listOf[changeRequestJSON]], error) {
	sp, err := s.spaceOf(ctx, in.SpaceID)
	if err != nil {
		return nil, err
	}
	f := in.filter()
	f.SpaceID = sp.ID
	l, err := s.svc.ChangeRequests(ctx, f, in.page())
	if err != nil {
		return nil, err
	}
	out, err := s.changeRequestListOut(ctx, l, sp)
	if err != nil {
		return nil, err
	}
	return reply(out), nil
}

func (s *Server) listOrgChangeRequests(ctx context.Context, in *struct {
	OrgPath
	ListParams
	ChangeRequestFilters
}) (*body[listOf[changeRequestJSON]], error) {
	f := in.filter()
	f.OrgID = in.OrganizationID
	l, err := s.svc.ChangeRequests(ctx, f, in.page())
	if err != nil {
		return nil, err
	}
	out, err := s.changeRequestListOut(ctx, l)
	if err != nil {
		return nil, err
	}
	return reply(out), nil
}

// createChangeRequestInput is the body of POST
// /spaces/{spaceId}/change-requests.
type createChangeRequestInput struct {
	Subject     string `json:"subject,omitempty" maxLength:"100"`
	AgentTaskID string `json:"agentTaskId,omitempty" doc:"Accepted for compatibility; no agent runs here"`
}

// createdChangeRequest answers a create with the new change request and
// its API URL.
type createdChangeRequest struct {
	Location string `header:"Location"`
	Body     changeRequestJSON
}

func (s *Server) createChangeRequest(ctx context.Context, in *struct {
	SpacePath
	Body *createChangeRequestInput `required:"false"`
}) (*createdChangeRequest, error) {
	var b createChangeRequestInput
	if in.Body != nil {
		b = *in.Body
	}
	cr, err := s.svc.CreateChangeRequest(ctx, userFrom(ctx), in.SpaceID, b.Subject)
	if err != nil {
		return nil, err
	}
	out, err := s.changeRequestInSpace(ctx, cr, in.SpaceID)
	if err != nil {
		return nil, err
	}
	return &createdChangeRequest{Location: out.URLs.Location, Body: out}, nil
}

func (s *Server) getChangeRequest(ctx context.Context, in *CRPath) (*body[changeRequestJSON], error) {
	sp, err := s.spaceOf(ctx, in.SpaceID)
	if err != nil {
		return nil, err
	}
	cr, err := s.svc.ChangeRequest(ctx, sp.ID, in.ChangeRequestID)
	if err != nil {
		return nil, err
	}
	out, err := s.changeRequestOut(ctx, cr, sp)
	if err != nil {
		return nil, err
	}
	return reply(out), nil
}

// changeRequestPatch is the body of PATCH
// /spaces/{spaceId}/change-requests/{changeRequestId}.
type changeRequestPatch struct {
	Subject     *string                  `json:"subject,omitempty" maxLength:"100"`
	Description nullable[map[string]any] `json:"description,omitempty" doc:"Rich-text document; null removes it"`
	Status      *string                  `json:"status,omitempty" enum:"draft,open,archived"`
}

func (s *Server) updateChangeRequest(ctx context.Context, in *struct {
	CRPath
	Body changeRequestPatch
}) (*body[changeRequestJSON], error) {
	patch := service.ChangeRequestPatch{Subject: in.Body.Subject, Status: (*quire.ChangeRequestStatus)(in.Body.Status)}
	switch d := in.Body.Description; {
	case d.Set && d.Null:
		patch.Description = &json.RawMessage{}
	case d.Set:
		raw, err := json.Marshal(d.Value)
		if err != nil {
			return nil, quire.Invalid("description", "must be a document object")
		}
		doc := json.RawMessage(raw)
		patch.Description = &doc
	}
	cr, err := s.svc.UpdateChangeRequest(ctx, in.SpaceID, in.ChangeRequestID, patch)
	if err != nil {
		return nil, err
	}
	out, err := s.changeRequestInSpace(ctx, cr, in.SpaceID)
	if err != nil {
		return nil, err
	}
	return reply(out), nil
}
