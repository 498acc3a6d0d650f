package httpapi

import (
	"context"

	"quire/internal/quire"
	"quire/internal/service"
)

// collectionJSON is the Collection object.
type collectionJSON struct {
	Object       string                `json:"object" enum:"collection"`
	ID           string                `json:"id"`
	Title        string                `json:"title" maxLength:"50"`
	Description  string                `json:"description,omitempty" maxLength:"100"`
	Organization string                `json:"organization"`
	Parent       string                `json:"parent,omitempty"`
	DefaultLevel *string               `json:"defaultLevel" nullable:"true" enum:"admin,create,edit,review,comment,read,inherit"`
	URLs         appURLs               `json:"urls"`
	Permissions  collectionPermissions `json:"permissions"`
}

// appURLs are the API and application URLs of an object.
type appURLs struct {
	Location string `json:"location" format:"uri"`
	App      string `json:"app" format:"uri"`
}

// collectionPermissions are the collection flags for the caller.
type collectionPermissions struct {
	View            bool `json:"view"`
	Admin           bool `json:"admin"`
	ViewInviteLinks bool `json:"viewInviteLinks"`
	Create          bool `json:"create"`
}

// collectionOut converts a collection for a caller at a level.
func (s *Server) collectionOut(v service.CollectionView) collectionJSON {
	c, p := v.Collection, quire.CollectionPermissionsFor(v.Level)
	return collectionJSON{Object: "collection", ID: c.ID, Title: c.Title, Description: c.Description,
		Organization: c.OrgID, Parent: c.Parent, DefaultLevel: defaultLevelOrNull(c.DefaultLevel),
		URLs:        appURLs{Location: s.urls.api("collections", c.ID), App: s.urls.app("c", c.ID)},
		Permissions: collectionPermissions{View: p.View, Admin: p.Admin, ViewInviteLinks: p.ViewInviteLinks, Create: p.Create}}
}

// CollectionPath names a collection.
type CollectionPath struct {
	CollectionID string `path:"collectionId"`
}

func (s *Server) getCollection(ctx context.Context, in *CollectionPath) (*body[collectionJSON], error) {
	c, err := s.svc.Collection(ctx, in.CollectionID)
	if err != nil {
		return nil, err
	}
	return reply(s.collectionOut(service.CollectionView{Collection: c, Level: levelFrom(ctx)})), nil
}

func (s *Server) listCollections(ctx context.Context, in *struct {
	OrgPath
	ListParams
	Nested bool `query:"nested" default:"true" doc:"When false, only collections at the organization's root are listed"`
}) (*body[listOf[collectionJSON]], error) {
	l, err := s.svc.Collections(ctx, userFrom(ctx), in.OrganizationID, in.Nested, in.page())
	if err != nil {
		return nil, err
	}
	return reply(listJSON(l, s.collectionOut)), nil
}

func (s *Server) createCollection(ctx context.Context, in *struct {
	OrgPath
	Body *struct {
		Title  string `json:"title,omitempty" maxLength:"50"`
		Parent string `json:"parent,omitempty"`
	} `required:"false"`
}) (*body[collectionJSON], error) {
	var title, parent string
	if in.Body != nil {
		title, parent = in.Body.Title, in.Body.Parent
	}
	v, err := s.svc.CreateCollection(ctx, userFrom(ctx), in.OrganizationID, title, parent)
	if err != nil {
		return nil, err
	}
	return reply(s.collectionOut(*v)), nil
}

func (s *Server) updateCollection(ctx context.Context, in *struct {
	CollectionPath
	Body struct {
		Title        *string          `json:"title,omitempty" minLength:"1" maxLength:"50"`
		Description  *string          `json:"description,omitempty" maxLength:"100"`
		DefaultLevel nullable[string] `json:"defaultLevel,omitempty" enum:"admin,create,edit,review,comment,read,inherit"`
	}
}) (*body[collectionJSON], error) {
	upd := quire.CollectionUpdate{Title: in.Body.Title, Description: in.Body.Description}
	if in.Body.DefaultLevel.Set {
		d := quire.DefaultLevel(in.Body.DefaultLevel.Value)
		upd.DefaultLevel = &d
	}
	v, err := s.svc.UpdateCollection(ctx, userFrom(ctx), in.CollectionID, upd)
	if err != nil {
		return nil, err
	}
	return reply(s.collectionOut(*v)), nil
}

func (s *Server) deleteCollection(ctx context.Context, in *CollectionPath) (*statusOnly, error) {
	ok, err := s.svc.DeleteCollection(ctx, in.CollectionID)
	if err != nil {
		return nil, err
	}
	return deleted(ok), nil
}

func (s *Server) listCollectionSpaces(ctx context.Context, in *struct {
	CollectionPath
	ListParams
}) (*body[listOf[spaceJSON]], error) {
	l, err := s.svc.CollectionSpaces(ctx, userFrom(ctx), in.CollectionID, in.page())
	if err != nil {
		return nil, err
	}
	return reply(listWritten[service.SpaceView, spaceJSON](l, s.spaceListJSON)), nil
}

// pointer names a space or collection that a moved item goes next to.
type pointer struct {
	Type       string `json:"type" enum:"space,collection"`
	Space      string `json:"space,omitempty"`
	Collection string `json:"collection,omitempty"`
}

// positionInput places a moved item before and/or after a sibling.
type positionInput struct {
	Before *pointer `json:"before,omitempty"`
	After  *pointer `json:"after,omitempty"`
}

// moveInput is the body of the space and collection moves.
type moveInput struct {
	Parent   nullable[string] `json:"parent,omitempty" doc:"Collection to move into; null for the organization's root"`
	Position *positionInput   `json:"position,omitempty"`
}

// domain converts the move for the service.
func (m moveInput) domain() (*string, service.Position, error) {
	var parent *string
	if m.Parent.Set {
		p := m.Parent.Value
		parent = &p
	}
	if parent == nil && m.Position == nil {
		return nil, service.Position{}, quire.Invalid("parent", "give a parent, a position or both")
	}
	var pos service.Position
	if m.Position != nil {
		var err error
		if pos.Before, err = m.Position.Before.anchor("position.before"); err != nil {
			return nil, pos, err
		}
		if pos.After, err = m.Position.After.anchor("position.after"); err != nil {
			return nil, pos, err
		}
		if pos.Before == nil && pos.After == nil {
			return nil, pos, quire.Invalid("position", "give before, after or both")
		}
	}
	return parent, pos, nil
}

// anchor checks that the pointer names the id field its type calls for.
func (p *pointer) anchor(field string) (*service.Anchor, error) {
	if p == nil {
		return nil, nil
	}
	kind, id := quire.SiblingKind(p.Type), p.Space
	if kind == quire.SiblingCollection {
		id = p.Collection
	}
	if id == "" {
		return nil, quire.Invalid(field+"."+p.Type, "required when type is %s", p.Type)
	}
	if (kind == quire.SiblingSpace && p.Collection != "") || (kind == quire.SiblingCollection && p.Space != "") {
		return nil, quire.Invalid(field, "give only the %s id for type %s", p.Type, p.Type)
	}
	return service.NewAnchor(kind, id), nil
}

func (s *Server) moveCollection(ctx context.Context, in *struct {
	CollectionPath
	Body moveInput
}) (*body[collectionJSON], error) {
	parent, pos, err := in.Body.domain()
	if err != nil {
		return nil, err
	}
	v, err := s.svc.MoveCollection(ctx, userFrom(ctx), in.CollectionID, parent, pos)
	if err != nil {
		return nil, err
	}
	return reply(s.collectionOut(*v)), nil
}

// transferInput is the body of the space and collection transfers.
type transferInput struct {
	Organization string `json:"organization" minLength:"1" doc:"Organization to transfer to"`
}

func (s *Server) transferCollection(ctx context.Context, in *struct {
	CollectionPath
	Body transferInput
}) (*body[collectionJSON], error) {
	v, err := s.svc.TransferCollection(ctx, userFrom(ctx), in.CollectionID, in.Body.Organization)
	if err != nil {
		return nil, err
	}
	return reply(s.collectionOut(*v)), nil
}
