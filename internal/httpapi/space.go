package httpapi

import (
	"context"

	"quire/internal/quire"
	"quire/internal/service"
)

// spaceJSON is the Space object.
type spaceJSON struct {
	Object              string           `json:"object" enum:"space"`
	ID                  string           `json:"id"`
	Title               string           `json:"title" maxLength:"50"`
	Emoji               string           `json:"emoji" maxLength:"50"`
	Visibility          string           `json:"visibility" enum:"public,unlisted,share-link,visitor-auth,in-collection,private"`
	CreatedAt           string           `json:"createdAt" format:"date-time"`
	UpdatedAt           string           `json:"updatedAt" format:"date-time"`
	DeletedAt           *string          `json:"deletedAt,omitempty" format:"date-time"`
	EditMode            string           `json:"editMode,omitempty" enum:"live,locked"`
	MergeRules          mergeRulesJSON   `json:"mergeRules"`
	URLs                spaceURLs        `json:"urls"`
	Organization        string           `json:"organization"`
	Parent              string           `json:"parent,omitempty"`
	Language            string           `json:"language,omitempty" enum:"en,fr,de,es,it,pt,pt-br,ru,ja,zh,yue,ko,ar,hi,nl,pl,tr,sv,no,da,fi,el,cs,hu,ro,th,vi,id,ms,he,uk,sk,bg,hr,lt,lv,et,sl"`
	Revision            string           `json:"revision"`
	DefaultLevel        *string          `json:"defaultLevel" nullable:"true" enum:"admin,create,edit,review,comment,read,inherit"`
	Comments            int              `json:"comments"`
	ChangeRequests      int              `json:"changeRequests"`
	ChangeRequestsOpen  int              `json:"changeRequestsOpen"`
	ChangeRequestsDraft int              `json:"changeRequestsDraft"`
	Permissions         spacePermissions `json:"permissions"`
}

// spaceURLs are the URLs of a space.
type spaceURLs struct {
	Location  string `json:"location" format:"uri"`
	App       string `json:"app" format:"uri"`
	Published string `json:"published,omitempty" format:"uri"`
	Public    string `json:"public,omitempty" format:"uri"`
	Icon      string `json:"icon,omitempty" format:"uri"`
}

// spacePermissions are the space flags for the caller.
type spacePermissions struct {
	View               bool `json:"view"`
	Access             bool `json:"access"`
	Admin              bool `json:"admin"`
	ViewInviteLinks    bool `json:"viewInviteLinks"`
	Edit               bool `json:"edit"`
	TriggerGitSync     bool `json:"triggerGitSync"`
	Comment            bool `json:"comment"`
	Merge              bool `json:"merge"`
	Review             bool `json:"review"`
	InstallIntegration bool `json:"installIntegration"`
}

// spaceOut converts a space for a caller at a level.
func (s *Server) spaceOut(sp *quire.Space, l quire.Level) spaceJSON {
	p := quire.SpacePermissionsFor(l)
	out := spaceJSON{
		Object: "space", ID: sp.ID, Title: sp.Title, Emoji: sp.Emoji, Visibility: string(sp.Visibility),
		CreatedAt: timestamp(sp.CreatedAt), UpdatedAt: timestamp(sp.UpdatedAt), DeletedAt: optTimestamp(sp.DeletedAt),
		EditMode: string(sp.EditMode), MergeRules: mergeRulesOut(sp.MergeRules), Organization: sp.OrgID, Parent: sp.Parent,
		Language: sp.Language, Revision: sp.Revision, DefaultLevel: defaultLevelOrNull(sp.DefaultLevel),
		Comments: sp.Comments, ChangeRequests: sp.ChangeRequests, ChangeRequestsOpen: sp.ChangeRequestsOpen,
		ChangeRequestsDraft: sp.ChangeRequestsDraft,
		URLs:                spaceURLs{Location: s.urls.api("spaces", sp.ID), App: s.urls.app("s", sp.ID), Icon: asURI(sp.IconURL)},
		Permissions: spacePermissions{View: p.View, Access: p.Access, Admin: p.Admin, ViewInviteLinks: p.ViewInviteLinks,
			Edit: p.Edit, TriggerGitSync: p.TriggerGitSync, Comment: p.Comment, Merge: p.Merge, Review: p.Review,
			InstallIntegration: p.InstallIntegration},
	}
	if sp.Visibility != quire.VisibilityPrivate {
		out.URLs.Published = s.urls.published(sp.ID)
	}
	if sp.Visibility == quire.VisibilityPublic {
		out.URLs.Public = out.URLs.Published
	}
	return out
}

// spaceViewOut converts a space with the caller's level.
func (s *Server) spaceViewOut(v service.SpaceView) spaceJSON { return s.spaceOut(v.Space, v.Level) }

// SpacePath names a space.
type SpacePath struct {
	SpaceID string `path:"spaceId"`
}

func (s *Server) getSpace(ctx context.Context, in *struct {
	SpacePath
	ShareKey string `query:"shareKey" maxLength:"256" doc:"Share key of a share-link site"`
}) (*body[spaceJSON], error) {
	sp, ok := subjectFrom[*quire.Space](ctx)
	if !ok {
		var err error
		if sp, err = s.svc.Space(ctx, in.SpaceID); err != nil {
			return nil, err
		}
	}
	return reply(s.spaceOut(sp, levelFrom(ctx))), nil
}

func (s *Server) listSpaces(ctx context.Context, in *struct {
	OrgPath
	ListParams
}) (*body[listOf[spaceJSON]], error) {
	var l *quire.List[service.SpaceView]
	var err error
	if acc, ok := subjectFrom[service.OrgAccess](ctx); ok && acc.Facts.OrgID == in.OrganizationID {
		l, err = s.svc.SpacesAfterAccess(ctx, userFrom(ctx), acc, in.page())
	} else {
		l, err = s.svc.Spaces(ctx, userFrom(ctx), in.OrganizationID, in.page())
	}
	if err != nil {
		return nil, err
	}
	return reply(listWritten[service.SpaceView, spaceJSON](l, s.spaceListJSON)), nil
}

// createSpaceInput is the body of POST /orgs/{organizationId}/spaces.
type createSpaceInput struct {
	Title    string `json:"title,omitempty" maxLength:"50"`
	Emoji    string `json:"emoji,omitempty" maxLength:"50"`
	Parent   string `json:"parent,omitempty" doc:"Collection to create the space in"`
	Language string `json:"language,omitempty" enum:"en,fr,de,es,it,pt,pt-br,ru,ja,zh,yue,ko,ar,hi,nl,pl,tr,sv,no,da,fi,el,cs,hu,ro,th,vi,id,ms,he,uk,sk,bg,hr,lt,lv,et,sl"`
	EditMode string `json:"editMode,omitempty" enum:"live,locked"`
	// Visibility is not in the published request schema, which admits
	// undeclared members; clients send it, and it is a field of the space.
	Visibility string `json:"visibility,omitempty" enum:"public,unlisted,share-link,visitor-auth,in-collection,private" doc:"Who can read the space (default private); in-collection needs a parent, and anything but private the admin role on the new space"`
}

func (s *Server) createSpace(ctx context.Context, in *struct {
	OrgPath
	Body *createSpaceInput `required:"false"`
}) (*body[spaceJSON], error) {
	var b createSpaceInput
	if in.Body != nil {
		b = *in.Body
	}
	sin := service.SpaceInput{
		Title: b.Title, Emoji: b.Emoji, Parent: b.Parent, Language: b.Language, EditMode: quire.EditMode(b.EditMode),
		Visibility: quire.Visibility(b.Visibility)}
	if acc, ok := subjectFrom[service.OrgAccess](ctx); ok {
		sin.Access = &acc
	}
	v, err := s.svc.CreateSpace(ctx, userFrom(ctx), in.OrganizationID, sin)
	if err != nil {
		return nil, err
	}
	return reply(s.spaceViewOut(*v)), nil
}

// spacePatch is the body of PATCH /spaces/{spaceId}.
type spacePatch struct {
	EditMode     *string          `json:"editMode,omitempty" enum:"live,locked"`
	Title        *string          `json:"title,omitempty" minLength:"1" maxLength:"50"`
	DefaultLevel nullable[string] `json:"defaultLevel,omitempty" enum:"admin,create,edit,review,comment,read,inherit"`
	Language     *string          `json:"language,omitempty" enum:"en,fr,de,es,it,pt,pt-br,ru,ja,zh,yue,ko,ar,hi,nl,pl,tr,sv,no,da,fi,el,cs,hu,ro,th,vi,id,ms,he,uk,sk,bg,hr,lt,lv,et,sl"`
	MergeRules   *mergeRulesInput `json:"mergeRules,omitempty"`
	Emoji        nullable[string] `json:"emoji,omitempty" maxLength:"50"`
	Icon         nullable[string] `json:"icon,omitempty" format:"uri" maxLength:"2048" pattern:"^[a-zA-Z][a-zA-Z0-9+.-]*://[^\\s]+$" patternDescription:"an absolute URL"`
	Visibility   *string          `json:"visibility,omitempty" enum:"public,unlisted,share-link,visitor-auth,in-collection,private"`
}

func (s *Server) updateSpace(ctx context.Context, in *struct {
	SpacePath
	Body spacePatch
}) (*body[spaceJSON], error) {
	b := in.Body
	upd := quire.SpaceUpdate{EditMode: (*quire.EditMode)(b.EditMode), Title: b.Title, Language: b.Language, Visibility: (*quire.Visibility)(b.Visibility)}
	if b.DefaultLevel.Set {
		d := quire.DefaultLevel(b.DefaultLevel.Value)
		upd.DefaultLevel = &d
	}
	if b.MergeRules != nil {
		m := b.MergeRules.domain()
		upd.MergeRules = &m
	}
	switch {
	case b.Emoji.Set && !b.Emoji.Null && b.Icon.Set && !b.Icon.Null:
		return nil, quire.Invalid("icon", "give either emoji or icon, not both")
	case b.Emoji.Set && !b.Emoji.Null:
		none := ""
		upd.Emoji, upd.IconURL = &b.Emoji.Value, &none
	case b.Icon.Set && !b.Icon.Null:
		none := ""
		upd.Emoji, upd.IconURL = &none, &b.Icon.Value
	default:
		upd.Emoji, upd.IconURL = b.Emoji.ptr(), b.Icon.ptr()
	}
	if upd.Visibility != nil && *upd.Visibility == quire.VisibilityInCollection {
		sp, err := s.svc.Space(ctx, in.SpaceID)
		if err != nil {
			return nil, err
		}
		if sp.Parent == "" {
			return nil, quire.Invalid("visibility", "in-collection is only for spaces in a collection")
		}
	}
	v, err := s.svc.UpdateSpace(ctx, userFrom(ctx), in.SpaceID, upd)
	if err != nil {
		return nil, err
	}
	return reply(s.spaceViewOut(*v)), nil
}

func (s *Server) deleteSpace(ctx context.Context, in *SpacePath) (*statusOnly, error) {
	ok, err := s.svc.DeleteSpace(ctx, in.SpaceID)
	if err != nil {
		return nil, err
	}
	return deleted(ok), nil
}

func (s *Server) duplicateSpace(ctx context.Context, in *SpacePath) (*body[spaceJSON], error) {
	v, err := s.svc.DuplicateSpace(ctx, userFrom(ctx), in.SpaceID)
	if err != nil {
		return nil, err
	}
	return reply(s.spaceViewOut(*v)), nil
}

func (s *Server) restoreSpace(ctx context.Context, in *SpacePath) (*body[spaceJSON], error) {
	v, err := s.svc.RestoreSpace(ctx, userFrom(ctx), in.SpaceID)
	if err != nil {
		return nil, err
	}
	return reply(s.spaceViewOut(*v)), nil
}

func (s *Server) moveSpace(ctx context.Context, in *struct {
	SpacePath
	Body moveInput
}) (*body[spaceJSON], error) {
	parent, pos, err := in.Body.domain()
	if err != nil {
		return nil, err
	}
	v, err := s.svc.MoveSpace(ctx, userFrom(ctx), in.SpaceID, parent, pos)
	if err != nil {
		return nil, err
	}
	return reply(s.spaceViewOut(*v)), nil
}

func (s *Server) transferSpace(ctx context.Context, in *struct {
	SpacePath
	Body transferInput
}) (*body[spaceJSON], error) {
	v, err := s.svc.TransferSpace(ctx, userFrom(ctx), in.SpaceID, in.Body.Organization)
	if err != nil {
		return nil, err
	}
	return reply(s.spaceViewOut(*v)), nil
}
