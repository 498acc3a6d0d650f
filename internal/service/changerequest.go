package service

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"

	"quire/internal/quire"
)

// MaxSubject is the longest change request subject, in characters.
const MaxSubject = 100

// ChangeRequestPatch holds the fields a PATCH of a change request may
// change; nil keeps a field, and an empty Description removes it.
type ChangeRequestPatch struct {
	Subject     *string
	Description *json.RawMessage
	Status      *quire.ChangeRequestStatus
}

// ChangeRequestView is a change request with what its object shows besides
// its own fields: its creator, and whether main content moved past it.
type ChangeRequestView struct {
	ChangeRequest *quire.ChangeRequest
	CreatedBy     *quire.User
	Outdated      bool
}

// Outdated reports whether a change request is behind its space: the space
// moved past the revision the change request is based on, and the change
// request is not merged.
func Outdated(cr *quire.ChangeRequest, sp *quire.Space) bool {
	return cr.Status != quire.CRMerged && sp.Revision != cr.Base()
}

// unlocked refuses a space whose content cannot change.
func unlocked(sp *quire.Space) error {
	if sp.EditMode == quire.EditModeLocked {
		return quire.Errorf(quire.EINVALID, "the space is locked; content cannot change")
	}
	return nil
}

// checkSubject checks a change request subject's length in characters and
// returns it trimmed.
func checkSubject(v string) (string, error) {
	v = strings.TrimSpace(v)
	if utf8.RuneCountInString(v) > MaxSubject {
		return "", quire.Invalid("subject", "must be at most %d characters", MaxSubject)
	}
	return v, nil
}

// checkDescription checks that a description is a rich-text document: a
// JSON object with object "document", a data object and a nodes array.
// The blocks inside are not checked here.
func checkDescription(raw json.RawMessage) error {
	var doc struct {
		Object *string          `json:"object"`
		Data   *json.RawMessage `json:"data"`
		Nodes  *json.RawMessage `json:"nodes"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return quire.Invalid("description", "must be a document object")
	}
	if doc.Object == nil || *doc.Object != "document" {
		return quire.Invalid("description", `must have object "document"`)
	}
	if doc.Data == nil || !jsonKind(*doc.Data, '{') {
		return quire.Invalid("description", "must have a data object")
	}
	if doc.Nodes == nil || !jsonKind(*doc.Nodes, '[') {
		return quire.Invalid("description", "must have a nodes array")
	}
	return nil
}

// compactDescription checks a description and returns it compacted.
func compactDescription(raw json.RawMessage) (json.RawMessage, error) {
	if err := checkDescription(raw); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil, quire.Invalid("description", "must be a document object")
	}
	return json.RawMessage(b.Bytes()), nil
}

// jsonKind reports whether a JSON value starts with the given delimiter:
// '{' for an object, '[' for an array.
func jsonKind(v json.RawMessage, delim byte) bool {
	s := strings.TrimSpace(string(v))
	return s != "" && s[0] == delim
}

// CreateChangeRequest opens a change request on a live space whose content
// may change. It starts as a draft from the space's current revision, with
// the caller as its creator and first contributor.
func (s *Service) CreateChangeRequest(ctx context.Context, u *quire.User, spaceID, subject string) (*quire.ChangeRequest, error) {
	subject, err := checkSubject(subject)
	if err != nil {
		return nil, err
	}
	var out *quire.ChangeRequest
	err = s.store.WithTx(ctx, func(st quire.Store) error {
		sp, err := liveSpace(ctx, st, spaceID)
		if err != nil {
			return err
		}
		if err := unlocked(sp); err != nil {
			return err
		}
		now := s.Now()
		cr := &quire.ChangeRequest{ID: quire.NewID(), SpaceID: sp.ID, Status: quire.CRDraft, Subject: subject,
			CreatedBy: u.ID, CreatedAt: now, UpdatedAt: now, Revision: sp.Revision, RevisionInitial: sp.Revision}
		if err := st.CreateChangeRequest(ctx, cr); err != nil {
			return err
		}
		if err := st.AddContributor(ctx, cr.ID, u.ID); err != nil {
			return err
		}
		out = cr
		return nil
	})
	return out, err
}

// ChangeRequest returns a change request of a space by id or number.
func (s *Service) ChangeRequest(ctx context.Context, spaceID, idOrNumber string) (*quire.ChangeRequest, error) {
	cr, err := s.store.ChangeRequest(ctx, spaceID, idOrNumber)
	if quire.IsNotFound(err) {
		return nil, quire.NotFound("change request")
	}
	return cr, err
}

// ChangeRequests lists change requests, newest first. An empty status
// keeps them all.
func (s *Service) ChangeRequests(ctx context.Context, f quire.ChangeRequestFilter, p quire.Page) (*quire.List[*quire.ChangeRequest], error) {
	return s.store.ChangeRequests(ctx, f, p)
}

// OrgChangeRequests lists, newest first, the change requests of an
// organization's live spaces (f.OrgID) that u may read, with those
// spaces by id: the count and the pages hold only what u may see.
func (s *Service) OrgChangeRequests(ctx context.Context, u *quire.User, f quire.ChangeRequestFilter, p quire.Page) (*quire.List[*quire.ChangeRequest], map[string]*quire.Space, error) {
	if f.OrgID == "" {
		return nil, nil, quire.Invalid("organization", "is required")
	}
	readable, err := s.readableSpaces(ctx, u, f.OrgID)
	if err != nil {
		return nil, nil, err
	}
	ids := make([]string, 0, len(readable))
	for id := range readable {
		ids = append(ids, id)
	}
	if f.SpaceIDs != nil {
		ids = slices.DeleteFunc(ids, func(id string) bool { return !slices.Contains(f.SpaceIDs, id) })
	}
	slices.Sort(ids)
	f.SpaceIDs = ids
	l, err := s.store.ChangeRequests(ctx, f, p)
	if err != nil {
		return nil, nil, err
	}
	return l, readable, nil
}

// UpdateChangeRequest applies a PATCH to a change request of a live space.
// The status may become draft, open or archived, and a merged change
// request keeps its status.
func (s *Service) UpdateChangeRequest(ctx context.Context, spaceID, idOrNumber string, patch ChangeRequestPatch) (*quire.ChangeRequest, error) {
	upd := quire.ChangeRequestUpdate{Status: patch.Status, Description: patch.Description}
	if patch.Subject != nil {
		v, err := checkSubject(*patch.Subject)
		if err != nil {
			return nil, err
		}
		upd.Subject = &v
	}
	if patch.Description != nil && len(*patch.Description) > 0 {
		d, err := compactDescription(*patch.Description)
		if err != nil {
			return nil, err
		}
		upd.Description = &d
	}
	if patch.Status != nil {
		switch *patch.Status {
		case quire.CRDraft, quire.CROpen, quire.CRArchived:
		default:
			return nil, quire.Invalid("status", "must be draft, open or archived")
		}
	}
	if patch.Status != nil {
		// Checked again under the row's lock: a merge that lands between
		// the read below and the write makes the attempt stale, and the
		// next one refuses.
		upd.IfStatus = []quire.ChangeRequestStatus{quire.CRDraft, quire.CROpen, quire.CRArchived}
	}
	return retryConflicts(func() (*quire.ChangeRequest, error) {
		var out *quire.ChangeRequest
		err := s.store.WithTx(ctx, func(st quire.Store) error {
			if _, err := liveSpace(ctx, st, spaceID); err != nil {
				return err
			}
			cr, err := st.ChangeRequest(ctx, spaceID, idOrNumber)
			if quire.IsNotFound(err) {
				return quire.NotFound("change request")
			} else if err != nil {
				return err
			}
			if cr.Status == quire.CRMerged && patch.Status != nil {
				return quire.Invalid("status", "the change request is merged; its status cannot change")
			}
			out, err = st.UpdateChangeRequest(ctx, spaceID, cr.ID, upd)
			return err
		})
		return out, err
	})
}

// ChangeRequestViews describes change requests for their objects: each
// one's creator, and whether it is outdated. Creators and spaces are read
// once each; known spaces (those the caller already holds) are not read
// again.
func (s *Service) ChangeRequestViews(ctx context.Context, crs []*quire.ChangeRequest, known ...*quire.Space) ([]ChangeRequestView, error) {
	users := map[string]*quire.User{}
	spaces := map[string]*quire.Space{}
	for _, sp := range known {
		spaces[sp.ID] = sp
	}
	out := make([]ChangeRequestView, 0, len(crs))
	for _, cr := range crs {
		u, ok := users[cr.CreatedBy]
		if !ok {
			var err error
			if u, err = s.store.User(ctx, cr.CreatedBy); err != nil {
				return nil, err
			}
			users[cr.CreatedBy] = u
		}
		sp, ok := spaces[cr.SpaceID]
		if !ok {
			var err error
			if sp, err = s.store.Space(ctx, cr.SpaceID); err != nil {
				return nil, err
			}
			spaces[cr.SpaceID] = sp
		}
		out = append(out, ChangeRequestView{ChangeRequest: cr, CreatedBy: u, Outdated: Outdated(cr, sp)})
	}
	return out, nil
}
