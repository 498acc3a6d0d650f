package httpapi

import "strconv"

// appendJSON writes the Space object as encoding/json would, member for
// member: a page of spaces is the API's largest common answer.
func (s spaceJSON) appendJSON(b []byte) []byte {
	b = append(b, `{"object":`...)
	b = appendJSONString(b, s.Object)
	b = appendStringMember(b, "id", s.ID)
	b = appendStringMember(b, "title", s.Title)
	b = appendStringMember(b, "emoji", s.Emoji)
	b = appendStringMember(b, "visibility", s.Visibility)
	b = appendStringMember(b, "createdAt", s.CreatedAt)
	b = appendStringMember(b, "updatedAt", s.UpdatedAt)
	if s.DeletedAt != nil {
		b = appendStringMember(b, "deletedAt", *s.DeletedAt)
	}
	if s.EditMode != "" {
		b = appendStringMember(b, "editMode", s.EditMode)
	}
	b = append(b, `,"mergeRules":`...)
	b = s.MergeRules.appendJSON(b)
	b = append(b, `,"urls":{"location":`...)
	b = appendJSONString(b, s.URLs.Location)
	b = appendStringMember(b, "app", s.URLs.App)
	if s.URLs.Published != "" {
		b = appendStringMember(b, "published", s.URLs.Published)
	}
	if s.URLs.Public != "" {
		b = appendStringMember(b, "public", s.URLs.Public)
	}
	if s.URLs.Icon != "" {
		b = appendStringMember(b, "icon", s.URLs.Icon)
	}
	b = append(b, '}')
	b = appendStringMember(b, "organization", s.Organization)
	if s.Parent != "" {
		b = appendStringMember(b, "parent", s.Parent)
	}
	if s.Language != "" {
		b = appendStringMember(b, "language", s.Language)
	}
	b = appendStringMember(b, "revision", s.Revision)
	b = append(b, `,"defaultLevel":`...)
	if s.DefaultLevel == nil {
		b = append(b, "null"...)
	} else {
		b = appendJSONString(b, *s.DefaultLevel)
	}
	b = append(b, `,"comments":`...)
	b = strconv.AppendInt(b, int64(s.Comments), 10)
	b = append(b, `,"changeRequests":`...)
	b = strconv.AppendInt(b, int64(s.ChangeRequests), 10)
	b = append(b, `,"changeRequestsOpen":`...)
	b = strconv.AppendInt(b, int64(s.ChangeRequestsOpen), 10)
	b = append(b, `,"changeRequestsDraft":`...)
	b = strconv.AppendInt(b, int64(s.ChangeRequestsDraft), 10)
	b = append(b, `,"permissions":`...)
	b = s.Permissions.appendJSON(b)
	return append(b, '}')
}

// appendJSON writes the space flags.
func (p *spacePermissions) appendJSON(b []byte) []byte {
	b = append(b, `{"view":`...)
	b = appendJSONBool(b, p.View)
	b = append(b, `,"access":`...)
	b = appendJSONBool(b, p.Access)
	b = append(b, `,"admin":`...)
	b = appendJSONBool(b, p.Admin)
	b = append(b, `,"viewInviteLinks":`...)
	b = appendJSONBool(b, p.ViewInviteLinks)
	b = append(b, `,"edit":`...)
	b = appendJSONBool(b, p.Edit)
	b = append(b, `,"triggerGitSync":`...)
	b = appendJSONBool(b, p.TriggerGitSync)
	b = append(b, `,"comment":`...)
	b = appendJSONBool(b, p.Comment)
	b = append(b, `,"merge":`...)
	b = appendJSONBool(b, p.Merge)
	b = append(b, `,"review":`...)
	b = appendJSONBool(b, p.Review)
	b = append(b, `,"installIntegration":`...)
	b = appendJSONBool(b, p.InstallIntegration)
	return append(b, '}')
}

// appendJSON writes a merge rules configuration.
func (m *mergeRulesJSON) appendJSON(b []byte) []byte {
	b = append(b, `{"type":`...)
	b = appendJSONString(b, m.Type)
	if m.Rules != nil {
		b = append(b, `,"rules":`...)
		if *m.Rules == nil {
			return append(b, "null}"...)
		}
		b = append(b, '[')
		for i, r := range *m.Rules {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"rule":`...)
			b = appendJSONString(b, r.Rule)
			if r.Users != nil {
				b = append(b, `,"users":`...)
				if *r.Users == nil {
					b = append(b, "null"...)
				} else {
					b = appendJSONStrings(b, *r.Users)
				}
			}
			if r.Expression != nil {
				b = appendStringMember(b, "expression", *r.Expression)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendJSONStrings writes a non-nil list of strings.
func appendJSONStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for j, u := range ss {
		if j > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, u)
	}
	return append(b, ']')
}
