package app

import "net/http"

// Shorthands of the route table.
const (
	get  = http.MethodGet
	post = http.MethodPost
)

// signInPath is the sign-in page, where a person who is not signed in
// is sent.
const signInPath = "/app/sign-in"

// table is the app's route table: every address it serves, with the
// access each needs. The API registers each row as a browser route.
func (a *App) table() []row {
	return []row{
		// Frame and navigation.
		{"appAsset", get, assetsPath + "{name}", public(), a.serveAsset},
		{"appHome", get, "/app/{$}", signedIn(), a.home},
		{"appOrganization", get, "/app/o/{organizationId}", onOrg(guest), a.orgHome},
		{"appSignOut", post, "/app/sign-out", public(), a.signOut},

		// People: members, teams, and sharing of spaces and collections.
		// The levels are the API's for the same operations.
		{"appMembers", get, "/app/o/{organizationId}/members", onOrg(read), a.members},
		{"appMember", get, "/app/o/{organizationId}/members/{userId}", onOrg(read), a.member},
		{"appMemberRole", post, "/app/o/{organizationId}/members/{userId}/role", onOrg(admin), a.setMemberRole},
		{"appMemberDisable", post, "/app/o/{organizationId}/members/{userId}/disable", onOrg(admin), a.disableMember},
		{"appMemberEnable", post, "/app/o/{organizationId}/members/{userId}/enable", onOrg(admin), a.enableMember},
		{"appMemberRemove", post, "/app/o/{organizationId}/members/{userId}/remove", onOrg(admin), a.removeMember},
		{"appTeams", get, "/app/o/{organizationId}/teams", onOrg(read), a.teams},
		{"appTeamCreate", post, "/app/o/{organizationId}/teams", onOrg(admin), a.createTeam},
		{"appTeam", get, "/app/o/{organizationId}/teams/{teamId}", onOrg(read), a.team},
		{"appTeamRename", post, "/app/o/{organizationId}/teams/{teamId}/rename", onOrg(admin), a.renameTeam},
		{"appTeamDelete", post, "/app/o/{organizationId}/teams/{teamId}/delete", onOrg(admin), a.deleteTeam},
		{"appTeamMemberAdd", post, "/app/o/{organizationId}/teams/{teamId}/members", onOrg(admin), a.addTeamMember},
		{"appTeamMemberRemove", post, "/app/o/{organizationId}/teams/{teamId}/members/{userId}/remove", onOrg(admin), a.removeTeamMember},
		{"appSpaceSharing", get, "/app/s/{spaceId}/sharing", onSpace(read), a.sharing},
		{"appSpaceShare", post, "/app/s/{spaceId}/sharing", onSpace(admin), a.share},
		{"appSpaceShareDefault", post, "/app/s/{spaceId}/sharing/default", onSpace(admin), a.setDefaultAccess},
		{"appSpaceShareChange", post, "/app/s/{spaceId}/sharing/{kind}/{principalId}", onSpace(admin), a.changeShare},
		{"appSpaceShareRemove", post, "/app/s/{spaceId}/sharing/{kind}/{principalId}/remove", onSpace(admin), a.removeShare},
		{"appCollectionSharing", get, "/app/c/{collectionId}/sharing", onCollection(read), a.sharing},
		{"appCollectionShare", post, "/app/c/{collectionId}/sharing", onCollection(admin), a.share},
		{"appCollectionShareDefault", post, "/app/c/{collectionId}/sharing/default", onCollection(admin), a.setDefaultAccess},
		{"appCollectionShareChange", post, "/app/c/{collectionId}/sharing/{kind}/{principalId}", onCollection(admin), a.changeShare},
		{"appCollectionShareRemove", post, "/app/c/{collectionId}/sharing/{kind}/{principalId}/remove", onCollection(admin), a.removeShare},

		{"appNotFound", get, "/app/", public(), a.notFound},
	}
}
