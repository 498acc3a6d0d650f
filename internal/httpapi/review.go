package httpapi

import (
	"context"
	"encoding/json"
	"reflect"

	"github.com/danielgtaylor/huma/v2"

	"quire/internal/quire"
	"quire/internal/service"
)

// reviewJSON is the ChangeRequestReview object.
type reviewJSON struct {
	Object      string       `json:"object" enum:"change-request-review"`
	ID          string       `json:"id"`
	Revision    string       `json:"revision" doc:"Revision of the change request the review was made against"`
	Reviewer    userJSON     `json:"reviewer"`
	RequestedBy *userJSON    `json:"requestedBy,omitempty" doc:"Who asked for the review; absent when nobody did"`
	Status      string       `json:"status" enum:"changes-requested,approved"`
	Outdated    bool         `json:"outdated" doc:"True once the change request moved on or the reviewer reviewed again"`
	Comment     *commentJSON `json:"comment,omitempty" doc:"The comment the review's text became"`
	CreatedAt   string       `json:"createdAt" format:"date-time"`
	UpdatedAt   string       `json:"updatedAt" format:"date-time"`
}

// requestedReviewerJSON is the ChangeRequestRequestedReviewer object of a
// user.
type requestedReviewerJSON struct {
	Object      string   `json:"object" enum:"change-request-requested-reviewer"`
	Kind        string   `json:"kind" enum:"user"`
	User        userJSON `json:"user"`
	Revision    string   `json:"revision" doc:"Revision of the change request when the review was asked for"`
	RequestedBy userJSON `json:"requestedBy"`
	CreatedAt   string   `json:"createdAt" format:"date-time"`
}

// reviewOut converts a described review, its comment's body in format.
func (s *Server) reviewOut(v service.ReviewView, format string) (reviewJSON, error) {
	r := v.Review
	out := reviewJSON{Object: "change-request-review", ID: r.ID, Revision: r.Revision, Reviewer: s.userOut(v.Reviewer),
		Status: string(r.Status), Outdated: v.Outdated, CreatedAt: timestamp(r.CreatedAt), UpdatedAt: timestamp(r.UpdatedAt)}
	if v.RequestedBy != nil {
		by := s.userOut(v.RequestedBy)
		out.RequestedBy = &by
	}
	if v.Comment != nil {
		c, err := s.commentOut(*v.Comment, format)
		if err != nil {
			return reviewJSON{}, err
		}
		out.Comment = &c
	}
	return out, nil
}

// requestedOut converts a described request to review.
func (s *Server) requestedOut(v service.RequestedReviewerView) requestedReviewerJSON {
	return requestedReviewerJSON{Object: "change-request-requested-reviewer", Kind: "user", User: s.userOut(v.User),
		Revision: v.Request.Revision, RequestedBy: s.userOut(v.RequestedBy), CreatedAt: timestamp(v.Request.CreatedAt)}
}

// optionalBool is a boolean query parameter that may be left out.
type optionalBool struct {
	Value bool
	IsSet bool
}

// Receiver exposes the field huma parses the parameter into.
func (o *optionalBool) Receiver() reflect.Value { return reflect.ValueOf(o).Elem().Field(0) }

// OnParamSet records whether the parameter was given.
func (o *optionalBool) OnParamSet(isSet bool, _ any) { o.IsSet = isSet }

// Schema declares the parameter a boolean.
func (optionalBool) Schema(huma.Registry) *huma.Schema { return &huma.Schema{Type: huma.TypeBoolean} }

// ptr returns the value, or nil when the parameter was left out.
func (o optionalBool) ptr() *bool {
	if !o.IsSet {
		return nil
	}
	v := o.Value
	return &v
}

func (s *Server) listReviews(ctx context.Context, in *struct {
	CRPath
	ListParams
	FormatParam
	Outdated optionalBool `query:"outdated" doc:"Only reviews that are (true) or are not (false) outdated"`
}) (*body[listOf[reviewJSON]], error) {
	l, err := s.svc.Reviews(ctx, commenter(ctx), in.SpaceID, in.ChangeRequestID, in.Outdated.ptr(), in.page())
	if err != nil {
		return nil, err
	}
	out, err := listJSONOrErr(l, func(v service.ReviewView) (reviewJSON, error) { return s.reviewOut(v, in.Format) })
	if err != nil {
		return nil, err
	}
	return reply(out), nil
}

// submitReviewBody is the body of a review submission.
type submitReviewBody struct {
	Status  string            `json:"status" enum:"changes-requested,approved" doc:"The verdict of the review"`
	Comment *commentBodyInput `json:"comment,omitempty" doc:"Text of the review, posted as a comment on the change request"`
}

// createdReview answers a review submission with the review and the API
// URL of the reviews.
type createdReview struct {
	Location string `header:"Location"`
	Body     reviewJSON
}

func (s *Server) submitReview(ctx context.Context, in *struct {
	CRPath
	Body submitReviewBody
}) (*createdReview, error) {
	rin := service.ReviewInput{Status: quire.ReviewStatus(in.Body.Status)}
	if in.Body.Comment != nil {
		d, err := in.Body.Comment.domain("comment")
		if err != nil {
			return nil, err
		}
		rin.Comment = &d
	}
	v, err := s.svc.SubmitReview(ctx, commenter(ctx), in.SpaceID, in.ChangeRequestID, rin)
	if err != nil {
		return nil, err
	}
	out, err := s.reviewOut(*v, "")
	if err != nil {
		return nil, err
	}
	// No operation reads one review, so the location is the change
	// request's list of reviews, where it is the newest.
	r := v.Review
	loc := s.urls.api("spaces", r.SpaceID, "change-requests", r.ChangeRequestID, "reviews")
	return &createdReview{Location: loc, Body: out}, nil
}

func (s *Server) listRequestedReviewers(ctx context.Context, in *struct {
	CRPath
	ListParams
}) (*body[listOf[requestedReviewerJSON]], error) {
	l, err := s.svc.RequestedReviewers(ctx, in.SpaceID, in.ChangeRequestID, in.page())
	if err != nil {
		return nil, err
	}
	return reply(listJSON(l, s.requestedOut)), nil
}

// requestReviewersBody is the body of a request for reviewers.
type requestReviewersBody struct {
	Users       []string       `json:"users" maxItems:"50" minLength:"1" maxLength:"64" doc:"Ids of the users asked to review"`
	Subject     *string        `json:"subject,omitempty" maxLength:"100" doc:"New subject of the change request"`
	Description map[string]any `json:"description,omitempty" doc:"New description of the change request (rich-text document)"`
}

// requestedReviewersJSON answers a request for reviewers.
type requestedReviewersJSON struct {
	Users []requestedReviewerJSON `json:"users" doc:"The requests made"`
}

func (s *Server) requestReviewers(ctx context.Context, in *struct {
	CRPath
	Body requestReviewersBody
}) (*body[requestedReviewersJSON], error) {
	req := service.ReviewersRequest{Users: in.Body.Users, Subject: in.Body.Subject}
	if in.Body.Description != nil {
		raw, err := json.Marshal(in.Body.Description)
		if err != nil {
			return nil, quire.Invalid("description", "must be a document object")
		}
		d := json.RawMessage(raw)
		req.Description = &d
	}
	vs, err := s.svc.RequestReviewers(ctx, userFrom(ctx), in.SpaceID, in.ChangeRequestID, req)
	if err != nil {
		return nil, err
	}
	out := requestedReviewersJSON{Users: make([]requestedReviewerJSON, 0, len(vs))}
	for _, v := range vs {
		out.Users = append(out.Users, s.requestedOut(v))
	}
	return reply(out), nil
}

func (s *Server) removeRequestedReviewer(ctx context.Context, in *struct {
	CRPath
	UserID string `path:"userId"`
}) (*statusOnly, error) {
	existed, err := s.svc.RemoveRequestedReviewer(ctx, in.SpaceID, in.ChangeRequestID, in.UserID)
	if err != nil {
		return nil, err
	}
	return deleted(existed), nil
}
