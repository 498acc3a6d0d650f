package app

import (
	"net/http"

	"quire/internal/service"
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
		{"appSites", get, "/app/o/{organizationId}/sites", onOrg(read), a.sitesPage},
		{"appSite", get, "/app/o/{organizationId}/sites/{siteId}", onOrg(read), a.sitePage},
		// Site administration (sites_*.go): the site's settings, structure,
		// share links, publishing and visitor authentication, at the API's
		// levels for the same operations.
		{"appSiteCreate", post, "/app/o/{organizationId}/sites", onOrg(create), a.createSite},
		{"appSiteUpdate", post, "/app/o/{organizationId}/sites/{siteId}", onOrg(create), a.updateSite},
		{"appSitePublish", post, "/app/o/{organizationId}/sites/{siteId}/publish", onOrg(create), a.publishSite(true)},
		{"appSiteUnpublish", post, "/app/o/{organizationId}/sites/{siteId}/unpublish", onOrg(create), a.publishSite(false)},
		{"appSiteDelete", post, "/app/o/{organizationId}/sites/{siteId}/delete", onOrg(create), a.deleteSite},
		{"appSiteConditionCheck", get, "/app/o/{organizationId}/sites/{siteId}/condition.json", onOrg(create), a.conditionCheck},
		{"appSiteItemMove", post, "/app/o/{organizationId}/sites/{siteId}/items/{itemId}/move", onOrg(create), a.moveSiteItem},
		{"appSiteSectionAdd", post, "/app/o/{organizationId}/sites/{siteId}/sections", onOrg(create), a.addSection},
		{"appSiteSection", get, "/app/o/{organizationId}/sites/{siteId}/sections/{siteSectionId}", onOrg(create), a.sectionPage},
		{"appSiteSectionUpdate", post, "/app/o/{organizationId}/sites/{siteId}/sections/{siteSectionId}", onOrg(create), a.updateSection},
		{"appSiteSectionDelete", post, "/app/o/{organizationId}/sites/{siteId}/sections/{siteSectionId}/delete", onOrg(create), a.deleteSection},
		{"appSiteGroupAdd", post, "/app/o/{organizationId}/sites/{siteId}/groups", onOrg(create), a.addGroup},
		{"appSiteGroup", get, "/app/o/{organizationId}/sites/{siteId}/groups/{siteSectionGroupId}", onOrg(create), a.groupPage},
		{"appSiteGroupUpdate", post, "/app/o/{organizationId}/sites/{siteId}/groups/{siteSectionGroupId}", onOrg(create), a.updateGroup},
		{"appSiteGroupDelete", post, "/app/o/{organizationId}/sites/{siteId}/groups/{siteSectionGroupId}/delete", onOrg(create), a.deleteGroup},
		{"appSiteGroupSectionAdd", post, "/app/o/{organizationId}/sites/{siteId}/groups/{siteSectionGroupId}/sections", onOrg(create), a.addToGroup},
		{"appSiteGroupSectionRemove", post, "/app/o/{organizationId}/sites/{siteId}/groups/{siteSectionGroupId}/sections/{siteSectionId}/remove", onOrg(create), a.removeFromGroup},
		{"appSiteSpaceAdd", post, "/app/o/{organizationId}/sites/{siteId}/site-spaces", onOrg(create), a.addSiteSpace},
		{"appSiteSpace", get, "/app/o/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", onOrg(create), a.siteSpacePage},
		{"appSiteSpaceUpdate", post, "/app/o/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", onOrg(create), a.updateSiteSpace},
		{"appSiteSpaceRemove", post, "/app/o/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/delete", onOrg(create), a.removeSiteSpace},
		{"appSiteShareLinkCreate", post, "/app/o/{organizationId}/sites/{siteId}/share-links", onOrg(create), a.createShareLink},
		{"appSiteShareLinkActive", post, "/app/o/{organizationId}/sites/{siteId}/share-links/{shareLinkId}", onOrg(create), a.setShareLinkActive},
		{"appSiteShareLinkDelete", post, "/app/o/{organizationId}/sites/{siteId}/share-links/{shareLinkId}/delete", onOrg(create), a.deleteShareLink},
		{"appSiteVisitorAuth", post, "/app/o/{organizationId}/sites/{siteId}/visitor-auth", onOrg(admin), a.updateVisitorAuth},
		{"appSiteKeyRegenerate", post, "/app/o/{organizationId}/sites/{siteId}/visitor-auth/regenerate", onOrg(admin), a.regenerateSiteKey},
		{"appIntegration", get, "/app/integrations/{integrationName}", signedIn(), a.integrationPage},
		{"appInstalledIntegration", get, "/app/o/{organizationId}/integrations/{integrationName}", onOrg(admin), a.installedIntegrationPage},
		// Integrations managed by the organization's admins
		// (integrations_*.go), through the operations the API's handlers
		// call: the list to install from, installing, the configuration
		// drawn from the integration's schemas (the installation's and
		// each space's and site's), the spaces and sites it covers, its
		// events, uninstalling.
		{"appIntegrations", get, "/app/o/{organizationId}/integrations", onOrg(admin), a.integrationsPage},
		{"appIntegrationInstall", post, "/app/o/{organizationId}/integrations/{integrationName}/install", onOrg(admin), a.installIntegration},
		{"appIntegrationConfig", get, "/app/o/{organizationId}/integrations/{integrationName}/configuration", onOrg(admin), a.installationConfig},
		{"appIntegrationConfigSave", post, "/app/o/{organizationId}/integrations/{integrationName}/configuration", onOrg(admin), a.saveInstallationConfig},
		{"appIntegrationSpaceConfig", get, "/app/o/{organizationId}/integrations/{integrationName}/spaces/{spaceId}", onOrg(admin), a.spaceConfig},
		{"appIntegrationSpaceConfigSave", post, "/app/o/{organizationId}/integrations/{integrationName}/spaces/{spaceId}", onOrg(admin), a.saveSpaceConfig},
		{"appIntegrationSiteConfig", get, "/app/o/{organizationId}/integrations/{integrationName}/sites/{siteId}", onOrg(admin), a.siteConfig},
		{"appIntegrationSiteConfigSave", post, "/app/o/{organizationId}/integrations/{integrationName}/sites/{siteId}", onOrg(admin), a.saveSiteConfig},
		{"appIntegrationCoverage", get, "/app/o/{organizationId}/integrations/{integrationName}/coverage", onOrg(admin), a.coverage},
		{"appIntegrationCoverageSave", post, "/app/o/{organizationId}/integrations/{integrationName}/coverage", onOrg(admin), a.saveCoverage},
		{"appIntegrationEvents", get, "/app/o/{organizationId}/integrations/{integrationName}/events", onOrg(admin), a.integrationEvents},
		{"appIntegrationEvent", get, "/app/o/{organizationId}/integrations/{integrationName}/events/{eventId}", onOrg(admin), a.integrationEvent},
		{"appIntegrationUninstallForm", get, "/app/o/{organizationId}/integrations/{integrationName}/uninstall", onOrg(admin), a.uninstallForm},
		{"appIntegrationUninstall", post, "/app/o/{organizationId}/integrations/{integrationName}/uninstall", onOrg(admin), a.uninstallIntegration},
		{"appOpenAPISpecs", get, "/app/o/{organizationId}/openapi", onOrg(read), a.openAPISpecsPage},
		{"appOpenAPISpec", get, "/app/o/{organizationId}/openapi/{specSlug}", onOrg(read), a.openAPISpecPage},
		// OpenAPI specifications managed (openapi_forms.go), at the API's
		// level for writing them; and the operations of the space's
		// organization for the editor's insert menu (openapi_insert.go),
		// at the space's read level.
		{"appOpenAPISpecAdd", post, "/app/o/{organizationId}/openapi", onOrg(create), a.addOpenAPISpec},
		{"appOpenAPISpecVisibility", post, "/app/o/{organizationId}/openapi/{specSlug}/visibility", onOrg(create), a.setOpenAPIVisibility},
		{"appOpenAPISpecRefresh", post, "/app/o/{organizationId}/openapi/{specSlug}/refresh", onOrg(create), a.refreshOpenAPISpec},
		{"appOpenAPISpecDelete", post, "/app/o/{organizationId}/openapi/{specSlug}/delete", onOrg(create), a.deleteOpenAPISpec},
		{"appSpaceOpenAPIOperations", get, "/app/s/{spaceId}/~/openapi.json", onSpace(read), a.spaceOpenAPIOperations},

		// A site's customization (site_customize*.go), at the API's level
		// for changing it: the form beside a preview of the site drawn by
		// the reader with the form's values (the POST) or the saved ones
		// (the pages its links lead to). A site space's page edits the
		// site's customization, which every site space takes, and opens
		// the preview on that site space.
		{"appSiteCustomize", get, "/app/o/{organizationId}/sites/{siteId}/customize", onOrg(create), a.siteCustomize},
		{"appSiteCustomizeSave", post, "/app/o/{organizationId}/sites/{siteId}/customize", onOrg(create), a.saveSiteCustomization},
		{"appSiteSpaceCustomize", get, "/app/o/{organizationId}/sites/{siteId}/spaces/{siteSpaceId}/customize", onOrg(create), a.siteCustomize},
		{"appSiteSpaceCustomizeSave", post, "/app/o/{organizationId}/sites/{siteId}/spaces/{siteSpaceId}/customize", onOrg(create), a.saveSiteCustomization},
		{"appSiteCustomizePreview", post, "/app/o/{organizationId}/sites/{siteId}/customize/preview", onOrg(create), a.previewSiteCustomization},
		{"appSiteCustomizePreviewPage", get, "/app/o/{organizationId}/sites/{siteId}/customize/preview/{path...}", onOrg(create), a.sitePreviewPage},

		// Single sign-on: OpenID Connect, and the organizations' SAML
		// identity providers found from an email (sso*.go).
		{"appSignInOIDC", get, "/app/sign-in/oidc", public(), a.oidcStart},
		{"appSignInOIDCCallback", get, OIDCCallbackPath, public(), a.oidcCallback},
		{"appSignInSSO", get, ssoPath, public(), a.ssoPage},
		{"appSignInSSOFind", post, ssoPath, public(), a.ssoFind},

		// Spaces and pages. The app's own addresses of a space, GET and
		// POST alike, sit under "~/" (spaceAppPath); no page path holds
		// a "~", so they never hide a page: every other path under a
		// space is a page (appPage).
		{"appSpace", get, "/app/s/{spaceId}", onSpace(read), a.spaceHome},
		{"appSpaceSearch", get, "/app/s/{spaceId}/~/search", onSpace(read), a.spaceSearch},
		{"appSpaceSearchJSON", get, "/app/s/{spaceId}/~/search.json", onSpace(read), a.spaceSearchJSON},
		{"appSpaceRevisions", get, "/app/s/{spaceId}/~/revisions", onSpace(read), a.spaceRevisions},
		{"appRevision", get, "/app/s/{spaceId}/~/revisions/{revisionId}", onSpace(read), a.revisionPage},
		{"appRevisionPage", get, "/app/s/{spaceId}/~/revisions/{revisionId}/{path...}", onSpace(read), a.revisionPage},
		{"appChangeRequest", get, "/app/s/{spaceId}/~/changes/{number}", onSpace(read), a.changeRequest},
		{"appChangeRequestPage", get, "/app/s/{spaceId}/~/changes/{number}/{path...}", onSpace(read), a.changeRequestPage},
		{"appSpaceBranch", get, "/app/s/{spaceId}/~/tree", onSpace(read), a.spaceBranch},
		// What others do in the space, streamed to its open pages
		// (live_events.go).
		{"appSpaceEvents", get, "/app/s/{spaceId}/~/events", onSpace(read), a.spaceEvents},
		{"appSpaceFile", get, "/app/s/{spaceId}/~/files/{revisionId}/{fileId}", onSpace(read), a.spaceFile},
		// Comments on a space's content and on a change request's (its
		// pages, their blocks, and the change request as a whole), at the
		// API's levels for comments (comment_forms.go). Each form answers
		// a redirect, or the threads' HTML to the comments script.
		{"appCommentMembers", get, "/app/s/{spaceId}/~/comments/members.json", onSpace(comment), a.mentionMembers},
		{"appCommentPost", post, "/app/s/{spaceId}/~/comments", onSpace(comment), a.postComment},
		{"appCommentReply", post, "/app/s/{spaceId}/~/comments/{commentId}/replies", onSpace(comment), a.replyComment},
		{"appCommentEdit", post, "/app/s/{spaceId}/~/comments/{commentId}/edit", onSpace(comment), a.editComment},
		{"appCommentDelete", post, "/app/s/{spaceId}/~/comments/{commentId}/delete", onSpace(comment), a.deleteComment},
		{"appCommentResolve", post, "/app/s/{spaceId}/~/comments/{commentId}/resolve", onSpace(comment), a.resolveComment},
		{"appCommentReopen", post, "/app/s/{spaceId}/~/comments/{commentId}/reopen", onSpace(comment), a.reopenComment},
		{"appCommentReact", post, "/app/s/{spaceId}/~/comments/{commentId}/react", onSpace(comment), a.reactComment},
		{"appCommentReplyEdit", post, "/app/s/{spaceId}/~/comments/{commentId}/replies/{replyId}/edit", onSpace(comment), a.editReply},
		{"appCommentReplyDelete", post, "/app/s/{spaceId}/~/comments/{commentId}/replies/{replyId}/delete", onSpace(comment), a.deleteReply},
		{"appCommentReplyReact", post, "/app/s/{spaceId}/~/comments/{commentId}/replies/{replyId}/react", onSpace(comment), a.reactReply},
		{"appCRCommentPost", post, "/app/s/{spaceId}/~/changes/{number}/comments", onSpace(comment), a.postComment},
		{"appCRCommentReply", post, "/app/s/{spaceId}/~/changes/{number}/comments/{commentId}/replies", onSpace(comment), a.replyComment},
		{"appCRCommentEdit", post, "/app/s/{spaceId}/~/changes/{number}/comments/{commentId}/edit", onSpace(comment), a.editComment},
		{"appCRCommentDelete", post, "/app/s/{spaceId}/~/changes/{number}/comments/{commentId}/delete", onSpace(comment), a.deleteComment},
		{"appCRCommentResolve", post, "/app/s/{spaceId}/~/changes/{number}/comments/{commentId}/resolve", onSpace(comment), a.resolveComment},
		{"appCRCommentReopen", post, "/app/s/{spaceId}/~/changes/{number}/comments/{commentId}/reopen", onSpace(comment), a.reopenComment},
		{"appCRCommentReact", post, "/app/s/{spaceId}/~/changes/{number}/comments/{commentId}/react", onSpace(comment), a.reactComment},
		{"appCRCommentReplyEdit", post, "/app/s/{spaceId}/~/changes/{number}/comments/{commentId}/replies/{replyId}/edit", onSpace(comment), a.editReply},
		{"appCRCommentReplyDelete", post, "/app/s/{spaceId}/~/changes/{number}/comments/{commentId}/replies/{replyId}/delete", onSpace(comment), a.deleteReply},
		{"appCRCommentReplyReact", post, "/app/s/{spaceId}/~/changes/{number}/comments/{commentId}/replies/{replyId}/react", onSpace(comment), a.reactReply},
		{"appPage", get, "/app/s/{spaceId}/{path...}", onSpace(read), a.spacePage},
		// Page operations from the page tree, and page settings
		// (page_ops*.go, page_move.go, page_settings.go): on a writable
		// change request's content or a live space's, through
		// writeContent.
		{"appPageNew", get, "/app/s/{spaceId}/~/edit/{target}/pages/new", onSpace(edit), a.pageOpForm("new")},
		{"appPageCreate", post, "/app/s/{spaceId}/~/edit/{target}/pages", onSpace(edit), a.createPage},
		{"appPageActions", get, "/app/s/{spaceId}/~/edit/{target}/pages/{pageId}", onSpace(edit), a.pageOpForm("actions")},
		{"appPageRenameForm", get, "/app/s/{spaceId}/~/edit/{target}/pages/{pageId}/rename", onSpace(edit), a.pageOpForm("rename")},
		{"appPageRename", post, "/app/s/{spaceId}/~/edit/{target}/pages/{pageId}/rename", onSpace(edit), a.renamePage},
		{"appPageDuplicate", post, "/app/s/{spaceId}/~/edit/{target}/pages/{pageId}/duplicate", onSpace(edit), a.duplicatePage},
		{"appPageMoveForm", get, "/app/s/{spaceId}/~/edit/{target}/pages/{pageId}/move", onSpace(edit), a.pageOpForm("move")},
		{"appPageMove", post, "/app/s/{spaceId}/~/edit/{target}/pages/{pageId}/move", onSpace(edit), a.movePage},
		{"appPageDeleteForm", get, "/app/s/{spaceId}/~/edit/{target}/pages/{pageId}/delete", onSpace(edit), a.pageOpForm("delete")},
		{"appPageDelete", post, "/app/s/{spaceId}/~/edit/{target}/pages/{pageId}/delete", onSpace(edit), a.deletePage},
		{"appPageSettings", get, "/app/s/{spaceId}/~/edit/{target}/pages/{pageId}/settings", onSpace(edit), a.pageSettings},
		{"appPageSettingsSave", post, "/app/s/{spaceId}/~/edit/{target}/pages/{pageId}/settings", onSpace(edit), a.savePageSettings},
		{"appSearch", get, "/app/o/{organizationId}/search", onOrg(guest), a.orgSearch},
		// History and conflicts (revision.go, restore.go, conflicts.go):
		// restoring a page or the whole space to a revision proposes a
		// new change request; a change request's conflicts with main are
		// settled one by one. Both write, so they need edit.
		{"appRevisionRestore", post, "/app/s/{spaceId}/~/revisions/{revisionId}/restore", onSpace(edit), a.restoreRevision},
		{"appRevisionRestorePage", post, "/app/s/{spaceId}/~/revisions/{revisionId}/restore-page", onSpace(edit), a.restoreRevisionPage},
		{"appChangeRequestConflicts", get, "/app/s/{spaceId}/~/changes/{number}/conflicts", onSpace(read), a.changeConflicts},
		{"appChangeRequestConflictsResolve", post, "/app/s/{spaceId}/~/changes/{number}/conflicts", onSpace(edit), a.resolveConflicts},
		// The editor (editor*.go): "Edit" opens the person's draft change
		// request; blocks are edited in place and whole pages as
		// Markdown. Every write sits under ~/edit/{target}
		// (edit_target.go): a change request's number, or "live".
		{"appEdit", post, "/app/s/{spaceId}/~/edit", onSpace(edit), a.startEditing},
		{"appEditBlock", get, "/app/s/{spaceId}/~/edit/{target}/pages/{pageId}/blocks/{key}", onSpace(edit), a.blockForm},
		{"appEditBlockSave", post, "/app/s/{spaceId}/~/edit/{target}/pages/{pageId}/blocks/{key}", onSpace(edit), a.saveBlock},
		{"appEditBlockDelete", post, "/app/s/{spaceId}/~/edit/{target}/pages/{pageId}/blocks/{key}/delete", onSpace(edit), a.deleteBlock},
		{"appEditBlockNew", get, "/app/s/{spaceId}/~/edit/{target}/pages/{pageId}/new-block", onSpace(edit), a.newBlockForm},
		{"appEditBlockInsert", post, "/app/s/{spaceId}/~/edit/{target}/pages/{pageId}/blocks", onSpace(edit), a.insertBlock},
		{"appEditMarkdown", get, "/app/s/{spaceId}/~/edit/{target}/pages/{pageId}/markdown", onSpace(edit), a.markdownForm},
		{"appEditMarkdownSave", post, "/app/s/{spaceId}/~/edit/{target}/pages/{pageId}/markdown", onSpace(edit), a.saveMarkdown},
		{"appEditPreview", post, "/app/s/{spaceId}/~/edit/{target}/pages/{pageId}/preview", onSpace(edit), a.previewMarkdown},
		{"appSearchJSON", get, "/app/o/{organizationId}/search.json", onOrg(guest), a.orgSearchJSON},
		// Password accounts: sign-in, first-start setup, resets, sign-up
		// through invite links and email domains, invite links. Sign-ins
		// and resets count against their own rate limits.
		{"appSignInPage", get, signInPath, public(), a.signInPage},
		{"appSignIn", post, signInPath, public().limited(service.RateSignIn), a.signIn},
		{"appSetupPage", get, "/app/setup/{secret}", public(), a.setupPage},
		{"appSetup", post, "/app/setup/{secret}", public(), a.setup},
		{"appForgotPage", get, "/app/forgot", public(), a.forgotPage},
		{"appForgot", post, "/app/forgot", public().limited(service.RateReset), a.forgot},
		{"appResetPage", get, "/app/reset/{secret}", public(), a.resetPage},
		{"appReset", post, "/app/reset/{secret}", public().limited(service.RateReset), a.reset},
		{"appPasswordPage", get, "/app/account/password", signedIn(), a.passwordPage},
		{"appPassword", post, "/app/account/password", signedIn(), a.changePassword},
		{"appJoinPage", get, "/app/join/{inviteId}", public(), a.joinPage},
		{"appJoin", post, "/app/join/{inviteId}", public(), a.join},
		{"appJoinAccept", post, "/app/join/{inviteId}/accept", signedIn(), a.acceptInvite},
		{"appSignUpPage", get, "/app/sign-up", public(), a.signUpPage},
		{"appSignUp", post, "/app/sign-up", public(), a.signUp},
		{"appConfirmPage", get, "/app/sign-up/{secret}", public(), a.confirmPage},
		{"appConfirm", post, "/app/sign-up/{secret}", public(), a.confirm},
		{"appInvites", get, "/app/o/{organizationId}/invites", onOrg(admin), a.invites},
		{"appCreateInvite", post, "/app/o/{organizationId}/invites", onOrg(admin), a.createInvite},
		{"appRevokeInvite", post, "/app/o/{organizationId}/invites/{inviteId}/revoke", onOrg(admin), a.revokeInvite},
		{"appAuditLog", get, "/app/o/{organizationId}/audit", onOrg(admin), a.auditLog},
		// The organization's settings (org_settings.go, org_saml.go): the
		// general settings and merge rules, and the SAML identity
		// providers with the service provider's addresses, at the API's
		// level for changing them.
		{"appOrgSettings", get, "/app/o/{organizationId}/settings", onOrg(admin), a.orgSettings},
		{"appOrgSettingsSave", post, "/app/o/{organizationId}/settings", onOrg(admin), a.saveOrgSettings},
		{"appOrgMergeRulesSave", post, "/app/o/{organizationId}/settings/merge-rules", onOrg(admin), a.saveMergeRules},
		{"appOrgSSO", get, "/app/o/{organizationId}/settings/sso", onOrg(admin), a.ssoSettings},
		{"appOrgSAMLCreate", post, "/app/o/{organizationId}/settings/sso", onOrg(admin), a.createSAMLProvider},
		{"appOrgSAMLProvider", get, "/app/o/{organizationId}/settings/sso/{samlProviderId}", onOrg(admin), a.samlProviderPage},
		{"appOrgSAMLUpdate", post, "/app/o/{organizationId}/settings/sso/{samlProviderId}", onOrg(admin), a.updateSAMLProvider},
		{"appOrgSAMLDelete", post, "/app/o/{organizationId}/settings/sso/{samlProviderId}/delete", onOrg(admin), a.deleteSAMLProvider},
		// Translations of the organization's spaces (translations*.go),
		// at the API's levels: reading them, creating to change them.
		{"appTranslations", get, "/app/o/{organizationId}/translations", onOrg(read), a.translations},
		{"appTranslationCreate", post, "/app/o/{organizationId}/translations", onOrg(create), a.createTranslation},
		{"appTranslation", get, "/app/o/{organizationId}/translations/{translationId}", onOrg(read), a.translationPage},
		{"appTranslationUpdate", post, "/app/o/{organizationId}/translations/{translationId}", onOrg(create), a.updateTranslation},
		{"appTranslationRun", post, "/app/o/{organizationId}/translations/{translationId}/run", onOrg(create), a.runTranslation},
		{"appTranslationDelete", post, "/app/o/{organizationId}/translations/{translationId}/delete", onOrg(create), a.deleteTranslation},
		// Collections and spaces: pages, creation, rename, move, delete
		// and Trash, at the API's levels for each.
		{"appCollection", get, "/app/c/{collectionId}", onCollection(read), a.collectionPage},
		{"appCollectionUpdate", post, "/app/c/{collectionId}/update", onCollection(admin), a.updateCollection},
		{"appCollectionMove", post, "/app/c/{collectionId}/move", onCollection(admin), a.moveCollection},
		{"appCollectionDelete", post, "/app/c/{collectionId}/delete", onCollection(admin), a.deleteCollection},
		{"appNewItem", get, "/app/o/{organizationId}/new", onOrg(create), a.newItem},
		{"appCollectionCreate", post, "/app/o/{organizationId}/collections", onOrg(create), a.createCollection},
		{"appSpaceCreate", post, "/app/o/{organizationId}/spaces", onOrg(create), a.createSpace},
		{"appSpaceManage", get, "/app/s/{spaceId}/~/manage", onSpace(admin), a.spaceManage},
		{"appSpaceRename", post, "/app/s/{spaceId}/~/update", onSpace(admin), a.renameSpace},
		{"appSpaceMove", post, "/app/s/{spaceId}/~/move", onSpace(admin), a.moveSpace},
		{"appSpaceDelete", post, "/app/s/{spaceId}/~/delete", onSpace(admin), a.deleteSpace},
		{"appSpaceRestore", post, "/app/s/{spaceId}/~/restore", onSpace(admin), a.restoreSpace},
		// Git Sync and content import of a space, at the API's levels:
		// reading the Git Sync state, editing to import or export.
		{"appSpaceGit", get, "/app/s/{spaceId}/~/git", onSpace(read), a.gitSyncPage},
		{"appSpaceGitImport", post, "/app/s/{spaceId}/~/git/import", onSpace(edit), a.gitImport},
		{"appSpaceGitExport", post, "/app/s/{spaceId}/~/git/export", onSpace(edit), a.gitExport},
		{"appSpaceImport", get, "/app/s/{spaceId}/~/import", onSpace(edit), a.contentImportPage},
		{"appSpaceImportContent", post, "/app/s/{spaceId}/~/import", onSpace(edit), a.importContent},
		// Content import from an uploaded file (content_import_upload.go),
		// at the import's level; turning off an organization's single
		// sign-on (org_sso_off.go), at the level of its SSO settings.
		{"appSpaceImportUpload", post, "/app/s/{spaceId}/~/import/upload", onSpace(edit), a.importUpload},
		{"appOrgSSOTurnOff", post, "/app/o/{organizationId}/settings/sso/turn-off", onOrg(admin), a.turnOffSSO},
		{"appTrash", get, "/app/o/{organizationId}/trash", onOrg(guest), a.trash},
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
		{"appSpaceSharing", get, "/app/s/{spaceId}/~/sharing", onSpace(read), a.sharing},
		{"appSpaceShare", post, "/app/s/{spaceId}/~/sharing", onSpace(admin), a.share},
		{"appSpaceShareDefault", post, "/app/s/{spaceId}/~/sharing/default", onSpace(admin), a.setDefaultAccess},
		{"appSpaceShareChange", post, "/app/s/{spaceId}/~/sharing/{kind}/{principalId}", onSpace(admin), a.changeShare},
		{"appSpaceShareRemove", post, "/app/s/{spaceId}/~/sharing/{kind}/{principalId}/remove", onSpace(admin), a.removeShare},
		{"appCollectionSharing", get, "/app/c/{collectionId}/sharing", onCollection(read), a.sharing},
		{"appCollectionShare", post, "/app/c/{collectionId}/sharing", onCollection(admin), a.share},
		{"appCollectionShareDefault", post, "/app/c/{collectionId}/sharing/default", onCollection(admin), a.setDefaultAccess},
		{"appCollectionShareChange", post, "/app/c/{collectionId}/sharing/{kind}/{principalId}", onCollection(admin), a.changeShare},
		{"appCollectionShareRemove", post, "/app/c/{collectionId}/sharing/{kind}/{principalId}/remove", onCollection(admin), a.removeShare},
		// Account settings: profile, sessions and personal API tokens.
		// Notifications: the inbox, marking read, and each person's
		// preferences of what reaches their inbox and email.
		{"appInbox", get, "/app/inbox", signedIn(), a.inbox},
		{"appInboxEvents", get, "/app/inbox/events", signedIn(), a.inboxEvents},
		{"appInboxReadAll", post, "/app/inbox/read-all", signedIn(), a.inboxReadAll},
		{"appInboxRead", post, "/app/inbox/{notificationId}/read", signedIn(), a.inboxRead},
		{"appAccountNotifications", post, "/app/account/notifications", signedIn(), a.accountNotifications},
		{"appAccount", get, "/app/account", signedIn(), a.account},
		{"appAccountProfile", post, "/app/account/profile", signedIn(), a.accountProfile},
		{"appAccountSessionRevoke", post, "/app/account/sessions/{sessionId}/revoke", signedIn(), a.accountSessionRevoke},
		{"appAccountSessionsRevokeOthers", post, "/app/account/sessions/revoke-others", signedIn(), a.accountSessionsRevokeOthers},
		{"appAccountTokenCreate", post, "/app/account/tokens", signedIn(), a.accountTokenCreate},
		{"appAccountTokenRevoke", post, "/app/account/tokens/{tokenId}/revoke", signedIn(), a.accountTokenRevoke},

		// Change requests: the lists of a space and of the organization,
		// and what the change request page does (details, status moves,
		// update from main, reviewers, reviews, merge) at the API's
		// levels for the same operations.
		{"appSpaceChangeRequests", get, "/app/s/{spaceId}/~/changes", onSpace(read), a.spaceChangeRequests},
		{"appOrgChangeRequests", get, "/app/o/{organizationId}/changes", onOrg(guest), a.orgChangeRequests},
		{"appChangeRequestDetails", post, "/app/s/{spaceId}/~/changes/{number}/details", onSpace(edit), a.updateChangeRequestDetails},
		{"appChangeRequestStatus", post, "/app/s/{spaceId}/~/changes/{number}/status", onSpace(edit), a.moveChangeRequest},
		{"appChangeRequestUpdateFromMain", post, "/app/s/{spaceId}/~/changes/{number}/update-from-main", onSpace(edit), a.updateChangeRequestFromMain},
		{"appChangeRequestReviewers", post, "/app/s/{spaceId}/~/changes/{number}/reviewers", onSpace(edit), a.requestReviewers},
		{"appChangeRequestReviewerRemove", post, "/app/s/{spaceId}/~/changes/{number}/reviewers/{userId}/remove", onSpace(edit), a.removeRequestedReviewer},
		{"appChangeRequestReview", post, "/app/s/{spaceId}/~/changes/{number}/reviews", onSpace(review), a.submitReview},
		{"appChangeRequestMerge", post, "/app/s/{spaceId}/~/changes/{number}/merge", onSpace(edit), a.mergeChangeRequest},
		// Diffs: a change request's changes, and two revisions compared
		// (diff.go). The change request's diff sits among its pages'
		// addresses and wins over a top-level page named "diff".
		{"appChangeRequestDiff", get, "/app/s/{spaceId}/~/changes/{number}/diff", onSpace(read), a.changeRequestDiff},
		{"appChangeRequestPDF", get, "/app/s/{spaceId}/~/changes/{number}/pdf", onSpace(read), a.changeRequestPDF},
		{"appSpacePDF", get, "/app/s/{spaceId}/~/pdf", onSpace(read), a.spacePDF},
		{"appCompareRevisions", get, "/app/s/{spaceId}/~/compare", onSpace(read), a.compareRevisions},
		// Markdown tools of the editor's textareas (mdtools.js): the
		// insert menu's block templates, uploads of pasted or dropped
		// files into the edit target, and pasted HTML made Markdown.
		{"appBlockTemplates", get, "/app/~/blocks.json", public(), a.serveBlocks},
		{"appEditFiles", post, "/app/s/{spaceId}/~/edit/{target}/files", onSpace(edit), a.uploadEditFile},
		{"appEditConvert", post, "/app/s/{spaceId}/~/edit/{target}/convert", onSpace(edit), a.convertEditHTML},

		{"appNotFound", get, "/app/", public(), a.notFound},
	}
}
