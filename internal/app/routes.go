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

		// Collections and spaces: pages, creation, rename, move, delete
		// and Trash, at the API's levels for each.
		{"appCollection", get, "/app/c/{collectionId}", onCollection(read), a.collectionPage},
		{"appCollectionUpdate", post, "/app/c/{collectionId}/update", onCollection(admin), a.updateCollection},
		{"appCollectionMove", post, "/app/c/{collectionId}/move", onCollection(admin), a.moveCollection},
		{"appCollectionDelete", post, "/app/c/{collectionId}/delete", onCollection(admin), a.deleteCollection},
		{"appNewItem", get, "/app/o/{organizationId}/new", onOrg(create), a.newItem},
		{"appCollectionCreate", post, "/app/o/{organizationId}/collections", onOrg(create), a.createCollection},
		{"appSpaceCreate", post, "/app/o/{organizationId}/spaces", onOrg(create), a.createSpace},
		{"appSpaceManage", get, "/app/s/{spaceId}/~manage", onSpace(admin), a.spaceManage},
		{"appSpaceRename", post, "/app/s/{spaceId}/update", onSpace(admin), a.renameSpace},
		{"appSpaceMove", post, "/app/s/{spaceId}/move", onSpace(admin), a.moveSpace},
		{"appSpaceDelete", post, "/app/s/{spaceId}/delete", onSpace(admin), a.deleteSpace},
		{"appSpaceRestore", post, "/app/s/{spaceId}/restore", onSpace(admin), a.restoreSpace},
		{"appTrash", get, "/app/o/{organizationId}/trash", onOrg(guest), a.trash},

		{"appNotFound", get, "/app/", public(), a.notFound},
	}
}
