package quire

// SpacePermissions are the flags a space reports for the caller.
type SpacePermissions struct {
	View, Access, Admin, ViewInviteLinks, Edit, TriggerGitSync, Comment, Merge, Review, InstallIntegration bool
}

// SpacePermissionsFor derives the space flags from an effective level.
func SpacePermissionsFor(l Level) SpacePermissions {
	return SpacePermissions{
		View:               l >= LevelRead,
		Access:             l >= LevelRead,
		Admin:              l >= LevelAdmin,
		ViewInviteLinks:    l >= LevelAdmin,
		Edit:               l >= LevelEdit,
		TriggerGitSync:     l >= LevelEdit,
		Comment:            l >= LevelComment,
		Merge:              l >= LevelEdit,
		Review:             l >= LevelReview,
		InstallIntegration: l >= LevelAdmin,
	}
}

// CollectionPermissions are the flags a collection reports for the caller.
type CollectionPermissions struct {
	View, Admin, ViewInviteLinks, Create bool
}

// CollectionPermissionsFor derives the collection flags from a level.
func CollectionPermissionsFor(l Level) CollectionPermissions {
	return CollectionPermissions{
		View:            l >= LevelRead,
		Admin:           l >= LevelAdmin,
		ViewInviteLinks: l >= LevelAdmin,
		Create:          l >= LevelCreate,
	}
}

// OrganizationPermissions are the flags an organization reports for the
// caller.
type OrganizationPermissions struct {
	View, Admin, OwnTeam, CreateContent, CreateOpenAPISpec, IngestConversations,
	ViewBilling, ListMembers, ListTeams, ListIntegrations, ListInstallations, InstallIntegration bool
}

// OrganizationPermissionsFor derives the organization flags from the
// caller's level in it (LevelGuest for a member without a role).
func OrganizationPermissionsFor(l Level) OrganizationPermissions {
	return OrganizationPermissions{
		View:                l >= LevelGuest,
		Admin:               l >= LevelAdmin,
		OwnTeam:             l >= LevelAdmin,
		CreateContent:       l >= LevelCreate,
		CreateOpenAPISpec:   l >= LevelCreate,
		IngestConversations: l >= LevelAdmin,
		ViewBilling:         l >= LevelAdmin,
		ListMembers:         l >= LevelRead,
		ListTeams:           l >= LevelRead,
		ListIntegrations:    l >= LevelRead,
		ListInstallations:   l >= LevelAdmin,
		InstallIntegration:  l >= LevelAdmin,
	}
}

// TeamPermissions are the flags a team reports for the caller.
type TeamPermissions struct {
	Admin, View bool
}

// TeamPermissionsFor derives the team flags from the caller's level in the
// organization.
func TeamPermissionsFor(l Level) TeamPermissions {
	return TeamPermissions{Admin: l >= LevelAdmin, View: l >= LevelRead}
}

// CommentPermissions are the flags a comment or reply reports for the
// caller.
type CommentPermissions struct {
	View, Edit, Reply, Delete bool
}

// CommentPermissionsFor derives the flags of a comment or reply from the
// caller's level on its space and whether they posted it: anyone who may
// comment replies and reacts, only the author edits, and the author or an
// admin deletes.
func CommentPermissionsFor(l Level, author bool) CommentPermissions {
	commenter := l >= LevelComment
	return CommentPermissions{
		View:   l >= LevelRead,
		Edit:   commenter && author,
		Reply:  commenter,
		Delete: commenter && (author || l >= LevelAdmin),
	}
}
