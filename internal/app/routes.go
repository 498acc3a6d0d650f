package app

import (
	"net/http"

	"quire/internal/quire"
)

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

		// Sites, integrations, OpenAPI (read-only): the pages behind the
		// urls.app the API answers, at the API's levels for reading them.
		{"appSites", get, "/app/o/{organizationId}/sites", onOrg(quire.LevelRead), a.sitesPage},
		{"appSite", get, "/app/o/{organizationId}/sites/{siteId}", onOrg(quire.LevelRead), a.sitePage},
		{"appIntegration", get, "/app/integrations/{integrationName}", signedIn(), a.integrationPage},
		{"appInstalledIntegration", get, "/app/o/{organizationId}/integrations/{integrationName}", onOrg(quire.LevelAdmin), a.installedIntegrationPage},
		{"appOpenAPISpecs", get, "/app/o/{organizationId}/openapi", onOrg(quire.LevelRead), a.openAPISpecsPage},
		{"appOpenAPISpec", get, "/app/o/{organizationId}/openapi/{specSlug}", onOrg(quire.LevelRead), a.openAPISpecPage},

		// Single sign-on: OpenID Connect, and the organizations' SAML
		// identity providers found from an email (sso*.go).
		{"appSignInOIDC", get, "/app/sign-in/oidc", public(), a.oidcStart},
		{"appSignInOIDCCallback", get, oidcCallbackPath, public(), a.oidcCallback},
		{"appSignInSSO", get, ssoPath, public(), a.ssoPage},
		{"appSignInSSOFind", post, ssoPath, public(), a.ssoFind},

		// Spaces and pages. ServeMux serves the most specific pattern:
		// the literal segments (search, revisions, ~) beat the page path
		// wildcard, so a top-level page slugged "search" or "revisions"
		// is read through its revision's address instead.
		{"appSpace", get, "/app/s/{spaceId}", onSpace(read), a.spaceHome},
		{"appSpaceSearch", get, "/app/s/{spaceId}/search", onSpace(read), a.spaceSearch},
		{"appSpaceSearchJSON", get, "/app/s/{spaceId}/search.json", onSpace(read), a.spaceSearchJSON},
		{"appSpaceRevisions", get, "/app/s/{spaceId}/revisions", onSpace(read), a.spaceRevisions},
		{"appRevision", get, "/app/s/{spaceId}/revisions/{revisionId}", onSpace(read), a.revisionPage},
		{"appRevisionPage", get, "/app/s/{spaceId}/revisions/{revisionId}/{path...}", onSpace(read), a.revisionPage},
		{"appChangeRequest", get, "/app/s/{spaceId}/~/changes/{number}", onSpace(read), a.changeRequest},
		{"appChangeRequestPage", get, "/app/s/{spaceId}/~/changes/{number}/{path...}", onSpace(read), a.changeRequestPage},
		{"appSpaceFile", get, "/app/s/{spaceId}/~/files/{revisionId}/{fileId}", onSpace(read), a.spaceFile},
		{"appPage", get, "/app/s/{spaceId}/{path...}", onSpace(read), a.spacePage},
		{"appSearch", get, "/app/o/{organizationId}/search", onOrg(guest), a.orgSearch},
		{"appSearchJSON", get, "/app/o/{organizationId}/search.json", onOrg(guest), a.orgSearchJSON},
		// Password accounts: sign-in, first-start setup, resets, sign-up
		// through invite links and email domains, invite links.
		{"appSignInPage", get, signInPath, public(), a.signInPage},
		{"appSignIn", post, signInPath, public(), a.signIn},
		{"appSetupPage", get, "/app/setup/{secret}", public(), a.setupPage},
		{"appSetup", post, "/app/setup/{secret}", public(), a.setup},
		{"appForgotPage", get, "/app/forgot", public(), a.forgotPage},
		{"appForgot", post, "/app/forgot", public(), a.forgot},
		{"appResetPage", get, "/app/reset/{secret}", public(), a.resetPage},
		{"appReset", post, "/app/reset/{secret}", public(), a.reset},
		{"appPasswordPage", get, "/app/account/password", signedIn(), a.passwordPage},
		{"appPassword", post, "/app/account/password", signedIn(), a.changePassword},
		{"appJoinPage", get, "/app/join/{inviteId}", public(), a.joinPage},
		{"appJoin", post, "/app/join/{inviteId}", public(), a.join},
		{"appSignUpPage", get, "/app/sign-up", public(), a.signUpPage},
		{"appSignUp", post, "/app/sign-up", public(), a.signUp},
		{"appConfirmPage", get, "/app/sign-up/{secret}", public(), a.confirmPage},
		{"appConfirm", post, "/app/sign-up/{secret}", public(), a.confirm},
		{"appInvites", get, "/app/o/{organizationId}/invites", onOrg(quire.LevelAdmin), a.invites},
		{"appCreateInvite", post, "/app/o/{organizationId}/invites", onOrg(quire.LevelAdmin), a.createInvite},
		{"appRevokeInvite", post, "/app/o/{organizationId}/invites/{inviteId}/revoke", onOrg(quire.LevelAdmin), a.revokeInvite},

		{"appNotFound", get, "/app/", public(), a.notFound},
	}
}
