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

		// Account settings: profile, sessions and personal API tokens.
		{"appAccount", get, "/app/account", signedIn(), a.account},
		{"appAccountProfile", post, "/app/account/profile", signedIn(), a.accountProfile},
		{"appAccountSessionRevoke", post, "/app/account/sessions/{sessionId}/revoke", signedIn(), a.accountSessionRevoke},
		{"appAccountSessionsRevokeOthers", post, "/app/account/sessions/revoke-others", signedIn(), a.accountSessionsRevokeOthers},
		{"appAccountTokenCreate", post, "/app/account/tokens", signedIn(), a.accountTokenCreate},
		{"appAccountTokenRevoke", post, "/app/account/tokens/{tokenId}/revoke", signedIn(), a.accountTokenRevoke},

		{"appNotFound", get, "/app/", public(), a.notFound},
	}
}
