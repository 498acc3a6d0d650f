package httpapi

import (
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"quire/internal/quire"
)

// Shorthands for the minimum levels of the table.
const (
	guest   = quire.LevelGuest
	read    = quire.LevelRead
	comment = quire.LevelComment
	create  = quire.LevelCreate
	edit    = quire.LevelEdit
	admin   = quire.LevelAdmin
	get     = http.MethodGet
	post    = http.MethodPost
	put     = http.MethodPut
	patch   = http.MethodPatch
	del     = http.MethodDelete
	created = http.StatusCreated
)

// register is the route table: every operation of the API, with its
// success status and the minimum level the caller needs on its subject.
func (s *Server) register(api huma.API) {
	// API and caller.
	handle(s, api, Route{ID: "getApiInformation", Method: get, Path: "/v1/", Access: anyUser()}, s.apiInformation)
	handle(s, api, Route{ID: "getAuthenticatedUser", Method: get, Path: "/v1/user", Access: anyUser()}, s.currentUser)

	// Organizations.
	handle(s, api, Route{ID: "listOrganizationsForAuthenticatedUser", Method: get, Path: "/v1/orgs", Access: anyUser()}, s.listOrgs)
	handle(s, api, Route{ID: "getOrganizationById", Method: get, Path: "/v1/orgs/{organizationId}", Access: onOrg(guest)}, s.getOrg)
	handle(s, api, Route{ID: "updateOrganizationById", Method: patch, Path: "/v1/orgs/{organizationId}", Access: onOrg(admin)}, s.updateOrg)
	handle(s, api, Route{ID: "deleteOrganizationInviteById", Method: del, Path: "/v1/orgs/{organizationId}/link-invites/{inviteId}", Access: onOrg(admin)}, s.deleteInvite)
	handle(s, api, Route{ID: "joinOrganization", Method: post, Path: "/v1/orgs/{organizationId}/join", Status: http.StatusNoContent, Access: anyUser()}, s.joinOrg)
	handle(s, api, Route{ID: "getOrganizationsForEmailDomain", Method: get, Path: "/v1/email-domains/{emailDomain}/orgs", Access: anyUser()}, s.orgsForEmailDomain)
	handle(s, api, Route{ID: "updateOrganizationMemberLastSeenAt", Method: post, Path: "/v1/orgs/{organizationId}/ping", Access: onOrg(guest)}, s.ping)
	handle(s, api, Route{ID: "listSSOProviderLoginsInOrganization", Method: get, Path: "/v1/orgs/{organizationId}/sso", Access: onOrg(guest)}, s.listSSOLogins)

	// Members.
	handle(s, api, Route{ID: "listMembersInOrganizationById", Method: get, Path: "/v1/orgs/{organizationId}/members", Access: onOrg(read)}, s.listMembers)
	handle(s, api, Route{ID: "getMemberInOrganizationById", Method: get, Path: "/v1/orgs/{organizationId}/members/{userId}", Access: onOrg(read)}, s.getMember)
	handle(s, api, Route{ID: "updateMemberInOrganizationById", Method: patch, Path: "/v1/orgs/{organizationId}/members/{userId}", Access: onOrg(admin)}, s.updateMember)
	handle(s, api, Route{ID: "removeMemberFromOrganizationById", Method: del, Path: "/v1/orgs/{organizationId}/members/{userId}", Access: onOrg(admin)}, s.removeMember)
	handle(s, api, Route{ID: "setUserAsSSOMemberForOrganization", Method: post, Path: "/v1/orgs/{organizationId}/members/{userId}/sso", Access: onOrg(admin)}, s.setMemberSSO)
	handle(s, api, Route{ID: "listSpacesForOrganizationMember", Method: get, Path: "/v1/orgs/{organizationId}/members/{userId}/spaces", Access: onOrg(read)}, s.listMemberSpaces)
	handle(s, api, Route{ID: "listTeamsForOrganizationMember", Method: get, Path: "/v1/orgs/{organizationId}/members/{userId}/teams", Access: onOrg(read)}, s.listMemberTeams)

	// The audit log: admins read who did what in the organization.
	handle(s, api, Route{ID: "listAuditEventsInOrganizationById", Method: get, Path: "/v1/orgs/{organizationId}/audit-events", Access: onOrg(admin)}, s.listAuditEvents)
	describeAuditResponses(api, "/v1/orgs/{organizationId}/audit-events")

	// The organization's export: every space as a GitBook repository and
	// a manifest of the rest, as one archive for its admins.
	handle(s, api, Route{ID: "exportOrganization", Method: get, Path: "/v1/orgs/{organizationId}/export", Access: onOrg(admin)}, s.exportOrg)
	describeExportResponses(api, "/v1/orgs/{organizationId}/export")

	// Teams.
	handle(s, api, Route{ID: "listTeamsInOrganizationById", Method: get, Path: "/v1/orgs/{organizationId}/teams", Access: onOrg(read)}, s.listTeams)
	handle(s, api, Route{ID: "createOrganizationTeam", Method: put, Path: "/v1/orgs/{organizationId}/teams", Status: created, Access: onOrg(admin)}, s.createTeam)
	handle(s, api, Route{ID: "getTeamInOrganizationById", Method: get, Path: "/v1/orgs/{organizationId}/teams/{teamId}", Access: onOrg(read)}, s.getTeam)
	handle(s, api, Route{ID: "updateTeamInOrganizationById", Method: patch, Path: "/v1/orgs/{organizationId}/teams/{teamId}", Access: onOrg(admin)}, s.updateTeam)
	handle(s, api, Route{ID: "removeTeamFromOrganizationById", Method: del, Path: "/v1/orgs/{organizationId}/teams/{teamId}", Access: onOrg(admin)}, s.deleteTeam)

	// Collections.
	handle(s, api, Route{ID: "listCollectionsInOrganizationById", Method: get, Path: "/v1/orgs/{organizationId}/collections", Access: onOrg(read)}, s.listCollections)
	handle(s, api, Route{ID: "createCollection", Method: post, Path: "/v1/orgs/{organizationId}/collections", Status: created, Access: onOrg(create)}, s.createCollection)
	handle(s, api, Route{ID: "getCollectionById", Method: get, Path: "/v1/collections/{collectionId}", Access: onCollection(read)}, s.getCollection)
	handle(s, api, Route{ID: "updateCollectionById", Method: patch, Path: "/v1/collections/{collectionId}", Access: onCollection(admin)}, s.updateCollection)
	handle(s, api, Route{ID: "deleteCollectionById", Method: del, Path: "/v1/collections/{collectionId}", Access: onCollection(admin).orAbsent()}, s.deleteCollection)
	handle(s, api, Route{ID: "listSpacesInCollectionById", Method: get, Path: "/v1/collections/{collectionId}/spaces", Access: onCollection(read)}, s.listCollectionSpaces)
	handle(s, api, Route{ID: "moveCollection", Method: post, Path: "/v1/collections/{collectionId}/move", Access: onCollection(admin)}, s.moveCollection)
	handle(s, api, Route{ID: "transferCollection", Method: post, Path: "/v1/collections/{collectionId}/transfer", Access: onCollection(admin)}, s.transferCollection)

	// Spaces.
	handle(s, api, Route{ID: "searchOrganizationContent", Method: get, Path: "/v1/orgs/{organizationId}/search", Access: onOrg(guest)}, s.searchOrganization)
	handle(s, api, Route{ID: "listSpacesInOrganizationById", Method: get, Path: "/v1/orgs/{organizationId}/spaces", Access: onOrg(read)}, s.listSpaces)
	handle(s, api, Route{ID: "createSpace", Method: post, Path: "/v1/orgs/{organizationId}/spaces", Status: created, Access: onOrg(create)}, s.createSpace)
	handle(s, api, Route{ID: "getSpaceById", Method: get, Path: "/v1/spaces/{spaceId}", Access: onSpace(read)}, s.getSpace)
	handle(s, api, Route{ID: "searchSpaceContent", Method: get, Path: "/v1/spaces/{spaceId}/search", Access: onSpace(read)}, s.searchSpace)
	handle(s, api, Route{ID: "updateSpaceById", Method: patch, Path: "/v1/spaces/{spaceId}", Access: onSpace(admin)}, s.updateSpace)
	handle(s, api, Route{ID: "deleteSpaceById", Method: del, Path: "/v1/spaces/{spaceId}", Access: onSpace(admin).orAbsent()}, s.deleteSpace)
	handle(s, api, Route{ID: "duplicateSpace", Method: post, Path: "/v1/spaces/{spaceId}/duplicate", Status: created, Access: onSpace(create)}, s.duplicateSpace)
	handle(s, api, Route{ID: "restoreSpace", Method: post, Path: "/v1/spaces/{spaceId}/restore", Access: onSpace(admin)}, s.restoreSpace)
	handle(s, api, Route{ID: "moveSpace", Method: post, Path: "/v1/spaces/{spaceId}/move", Access: onSpace(admin)}, s.moveSpace)
	handle(s, api, Route{ID: "transferSpace", Method: post, Path: "/v1/spaces/{spaceId}/transfer", Access: onSpace(admin)}, s.transferSpace)

	// Change requests.
	handle(s, api, Route{ID: "listChangeRequestsForSpace", Method: get, Path: "/v1/spaces/{spaceId}/change-requests", Access: onSpace(read)}, s.listSpaceChangeRequests)
	handle(s, api, Route{ID: "createChangeRequest", Method: post, Path: "/v1/spaces/{spaceId}/change-requests", Status: created, Access: onSpace(edit)}, s.createChangeRequest)
	handle(s, api, Route{ID: "getChangeRequestById", Method: get, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}", Access: onSpace(read)}, s.getChangeRequest)
	handle(s, api, Route{ID: "updateChangeRequestById", Method: patch, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}", Access: onSpace(edit)}, s.updateChangeRequest)
	handle(s, api, Route{ID: "getChangeRequestPDF", Method: get, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf", Access: onSpace(read)}, s.getChangeRequestPDF)
	handle(s, api, Route{ID: "listChangeRequestsForOrganization", Method: get, Path: "/v1/orgs/{organizationId}/change-requests", Access: onOrg(read)}, s.listOrgChangeRequests)

	// Change request comments.
	handle(s, api, Route{ID: "listCommentsInChangeRequest", Method: get, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments", Access: onSpace(read)}, listComments[crCommentsIn](s))
	handle(s, api, Route{ID: "postCommentInChangeRequest", Method: post, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments", Access: onSpace(comment)}, postComment[crCommentPostIn](s))
	handle(s, api, Route{ID: "getCommentInChangeRequest", Method: get, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}", Access: onSpace(read)}, getComment[crCommentGetIn](s))
	handle(s, api, Route{ID: "updateCommentInChangeRequest", Method: put, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}", Access: onSpace(comment)}, updateComment[crCommentUpdateIn](s))
	handle(s, api, Route{ID: "deleteCommentInChangeRequest", Method: del, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}", Access: onSpace(comment)}, deleteComment[crCommentDeleteIn](s))
	handle(s, api, Route{ID: "listCommentRepliesInChangeRequest", Method: get, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies", Access: onSpace(read)}, listReplies[crRepliesIn](s))
	handle(s, api, Route{ID: "postCommentReplyInChangeRequest", Method: post, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies", Access: onSpace(comment)}, postReply[crReplyPostIn](s))
	handle(s, api, Route{ID: "getCommentReplyInChangeRequest", Method: get, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}", Access: onSpace(read)}, getReply[crReplyGetIn](s))

	// Change request content, merge and update.
	handle(s, api, Route{ID: "updateChangeRequestContent", Method: post, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content", Access: onSpace(edit), MaxBody: ContentWriteMaxBody}, s.updateChangeRequestContent)
	handle(s, api, Route{ID: "importContentInChangeRequest", Method: post, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import", Status: created, Access: onSpace(edit)}, s.importContentInChangeRequest)
	handle(s, api, Route{ID: "mergeChangeRequest", Method: post, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge", Access: onSpace(edit)}, s.mergeChangeRequest)
	handle(s, api, Route{ID: "updateChangeRequest", Method: post, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/update", Access: onSpace(edit)}, s.updateChangeRequestFromMain)
	handle(s, api, Route{ID: "getRevisionOfChangeRequestById", Method: get, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content", Access: onSpace(read)}, readRevision[crContentIn](s))
	handle(s, api, Route{ID: "listPagesInChangeRequest", Method: get, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages", Access: onSpace(read)}, readPages[crContentIn](s))
	handle(s, api, Route{ID: "listFilesInChangeRequestById", Method: get, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files", Access: onSpace(read)}, readFiles[crFilesIn](s))
	handle(s, api, Route{ID: "getFileInChangeRequestById", Method: get, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}", Access: onSpace(read)}, readFile[crFileIn](s))
	handle(s, api, Route{ID: "getPageInChangeRequestById", Method: get, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}", Access: onSpace(read)}, readPage[crPageIn](s))
	handle(s, api, Route{ID: "listChangeRequestLinks", Method: get, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/links", Access: onSpace(read)}, listLinks[crLinksIn](s))
	handle(s, api, Route{ID: "listPageLinksInChangeRequest", Method: get, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links", Access: onSpace(read)}, listLinks[crPageLinksIn](s))
	handle(s, api, Route{ID: "listChangeRequestPageBacklinks", Method: get, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/backlinks", Access: onSpace(read)}, listBacklinks[crPageBacklinksIn](s))
	handle(s, api, Route{ID: "listChangeRequestFileBacklinks", Method: get, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks", Access: onSpace(read)}, listBacklinks[crFileBacklinksIn](s))
	handle(s, api, Route{ID: "getPageInChangeRequestByPath", Method: get, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/path/{pagePath}", Access: onSpace(read)}, readPage[crPathIn](s))

	// Change request reviews and requested reviewers.
	handle(s, api, Route{ID: "getReviewsByChangeRequestId", Method: get, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews", Access: onSpace(read)}, s.listReviews)
	handle(s, api, Route{ID: "submitChangeRequestReview", Method: post, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews", Status: created, Access: onSpace(quire.LevelReview)}, s.submitReview)
	handle(s, api, Route{ID: "getRequestedReviewersByChangeRequestId", Method: get, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers", Access: onSpace(read)}, s.listRequestedReviewers)
	handle(s, api, Route{ID: "requestReviewersForChangeRequest", Method: post, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers", Access: onSpace(edit)}, s.requestReviewers)
	handle(s, api, Route{ID: "removeRequestedReviewerFromChangeRequest", Method: del, Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}", Access: onSpace(edit)}, s.removeRequestedReviewer)

	// Space comments.
	handle(s, api, Route{ID: "listCommentsInSpace", Method: get, Path: "/v1/spaces/{spaceId}/comments", Access: onSpace(read)}, listComments[spaceCommentsIn](s))
	handle(s, api, Route{ID: "postCommentInSpace", Method: post, Path: "/v1/spaces/{spaceId}/comments", Access: onSpace(comment)}, postComment[spaceCommentPostIn](s))
	handle(s, api, Route{ID: "getCommentInSpace", Method: get, Path: "/v1/spaces/{spaceId}/comments/{commentId}", Access: onSpace(read)}, getComment[spaceCommentGetIn](s))
	handle(s, api, Route{ID: "updateCommentInSpace", Method: put, Path: "/v1/spaces/{spaceId}/comments/{commentId}", Access: onSpace(comment)}, updateComment[spaceCommentUpdateIn](s))
	handle(s, api, Route{ID: "deleteCommentInSpace", Method: del, Path: "/v1/spaces/{spaceId}/comments/{commentId}", Access: onSpace(comment)}, deleteComment[spaceCommentDeleteIn](s))
	handle(s, api, Route{ID: "listCommentRepliesInSpace", Method: get, Path: "/v1/spaces/{spaceId}/comments/{commentId}/replies", Access: onSpace(read)}, listReplies[spaceRepliesIn](s))
	handle(s, api, Route{ID: "postCommentReplyInSpace", Method: post, Path: "/v1/spaces/{spaceId}/comments/{commentId}/replies", Access: onSpace(comment)}, postReply[spaceReplyPostIn](s))
	handle(s, api, Route{ID: "getCommentReplyInSpace", Method: get, Path: "/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}", Access: onSpace(read)}, getReply[spaceReplyGetIn](s))
	handle(s, api, Route{ID: "updateCommentReplyInSpace", Method: put, Path: "/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}", Access: onSpace(comment)}, updateReply[spaceReplyUpdateIn](s))
	handle(s, api, Route{ID: "deleteCommentReplyInSpace", Method: del, Path: "/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}", Access: onSpace(comment)}, deleteReply[spaceReplyDeleteIn](s))

	// Space content.
	handle(s, api, Route{ID: "getCurrentRevision", Method: get, Path: "/v1/spaces/{spaceId}/content", Access: onSpace(read)}, readRevision[spaceContentIn](s))
	handle(s, api, Route{ID: "listPages", Method: get, Path: "/v1/spaces/{spaceId}/content/pages", Access: onSpace(read)}, readPages[spaceContentIn](s))
	handle(s, api, Route{ID: "listFiles", Method: get, Path: "/v1/spaces/{spaceId}/content/files", Access: onSpace(read)}, readFiles[spaceFilesIn](s))
	handle(s, api, Route{ID: "getFileById", Method: get, Path: "/v1/spaces/{spaceId}/content/files/{fileId}", Access: onSpace(read)}, readFile[spaceFileIn](s))
	handle(s, api, Route{ID: "getPageById", Method: get, Path: "/v1/spaces/{spaceId}/content/page/{pageId}", Access: onSpace(read)}, readPage[spacePageIn](s))
	handle(s, api, Route{ID: "getPageByPath", Method: get, Path: "/v1/spaces/{spaceId}/content/path/{pagePath}", Access: onSpace(read)}, readPage[spacePathIn](s))
	handle(s, api, Route{ID: "listSpaceLinks", Method: get, Path: "/v1/spaces/{spaceId}/links", Access: onSpace(read)}, listLinks[spaceLinksIn](s))
	handle(s, api, Route{ID: "listPageLinksInSpace", Method: get, Path: "/v1/spaces/{spaceId}/content/page/{pageId}/links", Access: onSpace(read)}, listLinks[spacePageLinksIn](s))
	handle(s, api, Route{ID: "listSpacePageBacklinks", Method: get, Path: "/v1/spaces/{spaceId}/content/page/{pageId}/backlinks", Access: onSpace(read)}, listBacklinks[spacePageBacklinksIn](s))
	handle(s, api, Route{ID: "listSpaceFileBacklinks", Method: get, Path: "/v1/spaces/{spaceId}/content/files/{fileId}/backlinks", Access: onSpace(read)}, listBacklinks[spaceFileBacklinksIn](s))
	handle(s, api, Route{ID: "applyTemplateToSpace", Method: post, Path: "/v1/spaces/{spaceId}/content/template", Status: created, Access: onSpace(edit)}, s.applyTemplate)
	handle(s, api, Route{ID: "importContent", Method: post, Path: "/v1/spaces/{spaceId}/content/import", Status: created, Access: onSpace(edit)}, s.importContent)

	// PDF export.
	handle(s, api, Route{ID: "getSpacePDF", Method: get, Path: "/v1/spaces/{spaceId}/pdf", Access: onSpace(read)}, s.getSpacePDF)
	handle(s, api, Route{ID: "downloadPDFBySignedLink", Method: get, Path: "/v1/pdfs/{spaceId}/{revisionId}/{fileName}", Access: signedLink()}, s.downloadSignedPDF)

	// Git Sync.
	handle(s, api, Route{ID: "importGitRepository", Method: post, Path: "/v1/spaces/{spaceId}/git/import", Status: http.StatusNoContent, Access: onSpace(edit)}, s.importGit)
	handle(s, api, Route{ID: "exportToGitRepository", Method: post, Path: "/v1/spaces/{spaceId}/git/export", Status: http.StatusNoContent, Access: onSpace(edit)}, s.exportGit)
	handle(s, api, Route{ID: "getSpaceGitInfo", Method: get, Path: "/v1/spaces/{spaceId}/git/info", Access: onSpace(read)}, s.getGitInfo)
	handle(s, api, Route{ID: "deleteLegacyGitInstallation", Method: del, Path: "/v1/spaces/{spaceId}/git/legacy-installation", Access: onSpace(admin)}, s.deleteGitInstallation)

	// Revisions.
	handle(s, api, Route{ID: "getRevisionById", Method: get, Path: "/v1/spaces/{spaceId}/revisions/{revisionId}", Access: onSpace(read)}, readRevision[revisionContentIn](s))
	handle(s, api, Route{ID: "listPagesInRevisionById", Method: get, Path: "/v1/spaces/{spaceId}/revisions/{revisionId}/pages", Access: onSpace(read)}, readPages[revisionContentIn](s))
	handle(s, api, Route{ID: "listFilesInRevisionById", Method: get, Path: "/v1/spaces/{spaceId}/revisions/{revisionId}/files", Access: onSpace(read)}, readFiles[revisionFilesIn](s))
	handle(s, api, Route{ID: "getFileInRevisionById", Method: get, Path: "/v1/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}", Access: onSpace(read)}, readFile[revisionFileIn](s))
	handle(s, api, Route{ID: "downloadFileInRevision", Method: get, Path: "/v1/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}/download", Access: onSpace(read)}, s.downloadFile)
	handle(s, api, Route{ID: "downloadFileBySignedLink", Method: get, Path: "/v1/downloads/{spaceId}/{revisionId}/{fileId}/{fileName}", Access: signedLink()}, s.downloadSignedFile)
	handle(s, api, Route{ID: "getPageInRevisionById", Method: get, Path: "/v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}", Access: onSpace(read)}, readPage[revisionPageIn](s))
	handle(s, api, Route{ID: "getPageInRevisionByPath", Method: get, Path: "/v1/spaces/{spaceId}/revisions/{revisionId}/path/{pagePath}", Access: onSpace(read)}, readPage[revisionPathIn](s))

	// Space permissions.
	handle(s, api, Route{ID: "inviteToSpace", Method: post, Path: "/v1/spaces/{spaceId}/permissions", Status: http.StatusNoContent, Access: onSpace(admin)}, s.inviteToSpace)
	handle(s, api, Route{ID: "listTeamPermissionsInSpace", Method: get, Path: "/v1/spaces/{spaceId}/permissions/teams", Access: onSpace(read)}, s.listSpaceTeams)
	handle(s, api, Route{ID: "updateTeamPermissionInSpace", Method: patch, Path: "/v1/spaces/{spaceId}/permissions/teams/{teamId}", Status: http.StatusNoContent, Access: onSpace(admin)}, s.updateSpaceTeam)
	handle(s, api, Route{ID: "removeTeamFromSpace", Method: del, Path: "/v1/spaces/{spaceId}/permissions/teams/{teamId}", Access: onSpace(admin)}, s.removeSpaceTeam)
	handle(s, api, Route{ID: "listUserPermissionsInSpace", Method: get, Path: "/v1/spaces/{spaceId}/permissions/users", Access: onSpace(read)}, s.listSpaceUsers)
	handle(s, api, Route{ID: "updateUserPermissionInSpace", Method: patch, Path: "/v1/spaces/{spaceId}/permissions/users/{userId}", Status: http.StatusNoContent, Access: onSpace(admin)}, s.updateSpaceUser)
	handle(s, api, Route{ID: "removeUserFromSpace", Method: del, Path: "/v1/spaces/{spaceId}/permissions/users/{userId}", Access: onSpace(admin)}, s.removeSpaceUser)

	// SAML single sign-on: the providers, then the browser endpoints of
	// the service provider and of sessions, which are not operations of
	// the published API and stay out of its document.
	handle(s, api, Route{ID: "listSAMLProvidersInOrganizationById", Method: get, Path: "/v1/orgs/{organizationId}/saml", Access: onOrg(admin)}, s.listSAMLProviders)
	handle(s, api, Route{ID: "createOrganizationSAMLProvider", Method: post, Path: "/v1/orgs/{organizationId}/saml", Status: created, Access: onOrg(admin)}, s.createSAMLProvider)
	handle(s, api, Route{ID: "getOrganizationSAMLProviderById", Method: get, Path: "/v1/orgs/{organizationId}/saml/{samlProviderId}", Access: onOrg(admin)}, s.getSAMLProvider)
	handle(s, api, Route{ID: "deleteOrganizationSAMLProvider", Method: del, Path: "/v1/orgs/{organizationId}/saml/{samlProviderId}", Access: onOrg(admin)}, s.deleteSAMLProvider)
	handle(s, api, Route{ID: "updateOrganizationSAMLProvider", Method: patch, Path: "/v1/orgs/{organizationId}/saml/{samlProviderId}", Access: onOrg(admin)}, s.updateSAMLProvider)
	s.browser(BrowserRoute{ID: "samlMetadata", Method: get, Path: "/sso/saml/{providerId}/metadata"}, s.samlMetadata)
	s.browser(BrowserRoute{ID: "samlLogin", Method: get, Path: "/sso/saml/{providerId}/login"}, s.samlLogin)
	s.browser(BrowserRoute{ID: "samlAssertionConsumer", Method: post, Path: "/sso/saml/{providerId}/acs"}, s.samlACS)
	s.browser(BrowserRoute{ID: "logout", Method: post, Path: "/sso/logout"}, s.logout)
	s.browser(BrowserRoute{ID: "createSessionToken", Method: post, Path: "/sso/tokens"}, s.createSessionToken)
	// Sites.
	handle(s, api, Route{ID: "listSites", Method: get, Path: "/v1/orgs/{organizationId}/sites", Access: onOrg(read)}, s.listSites)
	handle(s, api, Route{ID: "createSite", Method: post, Path: "/v1/orgs/{organizationId}/sites", Status: created, Access: onOrg(create)}, s.createSite)
	handle(s, api, Route{ID: "getSiteById", Method: get, Path: "/v1/orgs/{organizationId}/sites/{siteId}", Access: onSite(read)}, s.getSite)
	handle(s, api, Route{ID: "updateSiteById", Method: patch, Path: "/v1/orgs/{organizationId}/sites/{siteId}", Access: onOrg(create)}, s.updateSite)
	handle(s, api, Route{ID: "deleteSiteById", Method: del, Path: "/v1/orgs/{organizationId}/sites/{siteId}", Access: onOrg(create)}, s.deleteSite)
	handle(s, api, Route{ID: "publishSite", Method: post, Path: "/v1/orgs/{organizationId}/sites/{siteId}/publish", Access: onOrg(create)}, s.publishSite)
	handle(s, api, Route{ID: "unpublishSite", Method: post, Path: "/v1/orgs/{organizationId}/sites/{siteId}/unpublish", Access: onOrg(create)}, s.unpublishSite)
	handle(s, api, Route{ID: "getSiteAdaptiveSchema", Method: get, Path: "/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema", Access: onOrg(read)}, s.getSiteAdaptiveSchema)
	handle(s, api, Route{ID: "updateSiteAdaptiveSchema", Method: put, Path: "/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema", Access: onOrg(create)}, s.updateSiteAdaptiveSchema)
	handle(s, api, Route{ID: "listSiteAdaptiveTemplateConditions", Method: get, Path: "/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema/template-conditions", Access: onOrg(read)}, s.listSiteTemplateConditions)
	handle(s, api, Route{ID: "getPublishedContentSite", Method: get, Path: "/v1/orgs/{organizationId}/sites/{siteId}/published", Access: onOrg(read)}, s.getPublishedSite)
	handle(s, api, Route{ID: "getSiteCustomizationById", Method: get, Path: "/v1/orgs/{organizationId}/sites/{siteId}/customization", Access: onOrg(read)}, s.getSiteCustomization)
	handle(s, api, Route{ID: "updateSiteCustomizationById", Method: put, Path: "/v1/orgs/{organizationId}/sites/{siteId}/customization", Access: onOrg(create)}, s.updateSiteCustomization)
	handle(s, api, Route{ID: "getSiteStructure", Method: get, Path: "/v1/orgs/{organizationId}/sites/{siteId}/structure", Access: onSite(read)}, s.getSiteStructure)
	handle(s, api, Route{ID: "sortSiteStructure", Method: patch, Path: "/v1/orgs/{organizationId}/sites/{siteId}/structure/sort", Access: onOrg(create)}, s.sortSiteStructure)
	handle(s, api, Route{ID: "listSiteShareLinks", Method: get, Path: "/v1/orgs/{organizationId}/sites/{siteId}/share-links", Access: onOrg(read)}, s.listSiteShareLinks)
	handle(s, api, Route{ID: "createSiteShareLink", Method: post, Path: "/v1/orgs/{organizationId}/sites/{siteId}/share-links", Status: created, Access: onOrg(create)}, s.createSiteShareLink)
	handle(s, api, Route{ID: "updateSiteShareLinkById", Method: patch, Path: "/v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}", Access: onOrg(create)}, s.updateSiteShareLink)
	handle(s, api, Route{ID: "deleteSiteShareLinkById", Method: del, Path: "/v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}", Access: onOrg(create)}, s.deleteSiteShareLink)
	handle(s, api, Route{ID: "getSitePublishingAuthById", Method: get, Path: "/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth", Access: onOrg(admin)}, s.getSitePublishingAuth)
	handle(s, api, Route{ID: "updateSitePublishingAuthById", Method: patch, Path: "/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth", Access: onOrg(admin)}, s.updateSitePublishingAuth)
	handle(s, api, Route{ID: "regenerateSitePublishingAuthById", Method: post, Path: "/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth/regenerate", Access: onOrg(admin)}, s.regenerateSitePublishingAuth)

	// Site sections, section groups and site spaces.
	handle(s, api, Route{ID: "listSiteSections", Method: get, Path: "/v1/orgs/{organizationId}/sites/{siteId}/sections", Access: onOrg(read)}, s.listSiteSections)
	handle(s, api, Route{ID: "addSectionToSite", Method: post, Path: "/v1/orgs/{organizationId}/sites/{siteId}/sections", Status: created, Access: onOrg(create)}, s.addSectionToSite)
	handle(s, api, Route{ID: "updateSiteSectionById", Method: patch, Path: "/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", Access: onOrg(create)}, s.updateSiteSection)
	handle(s, api, Route{ID: "deleteSiteSectionById", Method: del, Path: "/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", Access: onOrg(create)}, s.deleteSiteSection)
	handle(s, api, Route{ID: "moveSiteSection", Method: post, Path: "/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move", Access: onOrg(create)}, s.moveSiteSection)
	handle(s, api, Route{ID: "listSiteSectionGroups", Method: get, Path: "/v1/orgs/{organizationId}/sites/{siteId}/section-groups", Access: onOrg(read)}, s.listSiteSectionGroups)
	handle(s, api, Route{ID: "addSectionGroupToSite", Method: post, Path: "/v1/orgs/{organizationId}/sites/{siteId}/section-groups", Status: created, Access: onOrg(create)}, s.addSectionGroupToSite)
	handle(s, api, Route{ID: "updateSiteSectionGroupById", Method: patch, Path: "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}", Access: onOrg(create)}, s.updateSiteSectionGroup)
	handle(s, api, Route{ID: "deleteSiteSectionGroupById", Method: del, Path: "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}", Access: onOrg(create)}, s.deleteSiteSectionGroup)
	handle(s, api, Route{ID: "addSectionToGroup", Method: post, Path: "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections", Status: created, Access: onOrg(create)}, s.addSectionToGroup)
	handle(s, api, Route{ID: "removeSectionFromGroup", Method: del, Path: "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}", Access: onOrg(create)}, s.removeSectionFromGroup)
	handle(s, api, Route{ID: "moveSiteSectionGroup", Method: post, Path: "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move", Access: onOrg(create)}, s.moveSiteSectionGroup)
	handle(s, api, Route{ID: "listSiteSpaces", Method: get, Path: "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces", Access: onOrg(read)}, s.listSiteSpaces)
	handle(s, api, Route{ID: "addSpaceToSite", Method: post, Path: "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces", Status: created, Access: onOrg(create)}, s.addSpaceToSite)
	handle(s, api, Route{ID: "updateSiteSpaceById", Method: patch, Path: "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", Access: onOrg(create)}, s.updateSiteSpace)
	handle(s, api, Route{ID: "deleteSiteSpaceById", Method: del, Path: "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", Access: onOrg(create)}, s.deleteSiteSpace)
	handle(s, api, Route{ID: "moveSiteSpace", Method: post, Path: "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move", Access: onOrg(create)}, s.moveSiteSpace)
	// Translations.
	handle(s, api, Route{ID: "listTranslations", Method: get, Path: "/v1/orgs/{organizationId}/translations", Access: onOrg(read)}, s.listTranslations)
	handle(s, api, Route{ID: "createTranslation", Method: post, Path: "/v1/orgs/{organizationId}/translations", Status: created, Access: onOrg(create)}, s.createTranslation)
	handle(s, api, Route{ID: "getTranslation", Method: get, Path: "/v1/orgs/{organizationId}/translations/{translationId}", Access: onOrg(read)}, s.getTranslation)
	handle(s, api, Route{ID: "updateTranslation", Method: put, Path: "/v1/orgs/{organizationId}/translations/{translationId}", Access: onOrg(create)}, s.updateTranslation)
	handle(s, api, Route{ID: "deleteTranslation", Method: del, Path: "/v1/orgs/{organizationId}/translations/{translationId}", Access: onOrg(create)}, s.deleteTranslation)
	handle(s, api, Route{ID: "runTranslation", Method: post, Path: "/v1/orgs/{organizationId}/translations/{translationId}/run", Status: http.StatusNoContent, Access: onOrg(create)}, s.runTranslation)
	// Integrations: who may do what depends on the integration and the
	// installation, which the service checks; the caller is any user or an
	// integration's token.
	handle(s, api, Route{ID: "listIntegrations", Method: get, Path: "/v1/integrations", Access: anyUser()}, s.listIntegrations)
	handle(s, api, Route{ID: "getIntegrationByName", Method: get, Path: "/v1/integrations/{integrationName}", Access: anyUser()}, s.getIntegration)
	handle(s, api, Route{ID: "publishIntegration", Method: post, Path: "/v1/integrations/{integrationName}", Access: anyUser(), MaxBody: IntegrationMaxBody}, s.publishIntegration)
	handle(s, api, Route{ID: "unpublishIntegration", Method: del, Path: "/v1/integrations/{integrationName}", Access: anyUser()}, s.unpublishIntegration)
	s.browser(BrowserRoute{ID: "getIntegrationImage", Method: get, Path: "/integrations/{integrationName}/images/{digest}", Public: true}, s.integrationImage)
	handle(s, api, Route{ID: "listIntegrationInstallations", Method: get, Path: "/v1/integrations/{integrationName}/installations", Access: anyUser()}, s.listInstallations)
	handle(s, api, Route{ID: "installIntegration", Method: post, Path: "/v1/integrations/{integrationName}/installations", Status: created, Access: anyUser()}, s.installIntegration)
	handle(s, api, Route{ID: "getIntegrationInstallationById", Method: get, Path: "/v1/integrations/{integrationName}/installations/{installationId}", Access: anyUser()}, s.getInstallation)
	handle(s, api, Route{ID: "updateIntegrationInstallation", Method: patch, Path: "/v1/integrations/{integrationName}/installations/{installationId}", Access: anyUser()}, s.updateInstallation)
	handle(s, api, Route{ID: "uninstallIntegration", Method: del, Path: "/v1/integrations/{integrationName}/installations/{installationId}", Access: anyUser()}, s.uninstallIntegration)
	handle(s, api, Route{ID: "createIntegrationInstallationToken", Method: post, Path: "/v1/integrations/{integrationName}/installations/{installationId}/tokens", Access: anyUser()}, s.createInstallationToken)
	handle(s, api, Route{ID: "installIntegrationOnSpace", Method: post, Path: "/v1/integrations/{integrationName}/installations/{installationId}/spaces", Status: created, Access: anyUser()}, s.installOnSpace)
	handle(s, api, Route{ID: "getIntegrationSpaceInstallation", Method: get, Path: "/v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}", Access: anyUser()}, s.getSpaceInstallation)
	handle(s, api, Route{ID: "updateIntegrationSpaceInstallation", Method: patch, Path: "/v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}", Access: anyUser()}, s.updateSpaceInstallation)
	handle(s, api, Route{ID: "uninstallIntegrationFromSpace", Method: del, Path: "/v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}", Access: anyUser()}, s.uninstallFromSpace)
	handle(s, api, Route{ID: "installIntegrationOnSite", Method: post, Path: "/v1/integrations/{integrationName}/installations/{installationId}/sites", Status: created, Access: anyUser()}, s.installOnSite)
	handle(s, api, Route{ID: "getIntegrationSiteInstallation", Method: get, Path: "/v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}", Access: anyUser()}, s.getSiteInstallation)
	handle(s, api, Route{ID: "updateIntegrationSiteInstallation", Method: patch, Path: "/v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}", Access: anyUser()}, s.updateSiteInstallation)
	handle(s, api, Route{ID: "uninstallIntegrationFromSite", Method: del, Path: "/v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}", Access: anyUser()}, s.uninstallFromSite)
	handle(s, api, Route{ID: "listIntegrationSpaceInstallations", Method: get, Path: "/v1/integrations/{integrationName}/spaces", Access: anyUser()}, s.listSpaceInstallations)
	handle(s, api, Route{ID: "listIntegrationSiteInstallations", Method: get, Path: "/v1/integrations/{integrationName}/sites", Access: anyUser()}, s.listSiteInstallations)
	handle(s, api, Route{ID: "listIntegrationEvents", Method: get, Path: "/v1/integrations/{integrationName}/events", Access: anyUser()}, s.listIntegrationEvents)
	handle(s, api, Route{ID: "getIntegrationEvent", Method: get, Path: "/v1/integrations/{integrationName}/events/{eventId}", Access: anyUser()}, s.getIntegrationEvent)
	handle(s, api, Route{ID: "setIntegrationDevelopmentMode", Method: put, Path: "/v1/integrations/{integrationName}/dev", Status: http.StatusNoContent, Access: anyUser()}, s.setIntegrationDev)
	handle(s, api, Route{ID: "disableIntegrationDevelopmentMode", Method: del, Path: "/v1/integrations/{integrationName}/dev", Status: http.StatusResetContent, Access: anyUser()}, s.disableIntegrationDev)
	handle(s, api, Route{ID: "listSpaceIntegrations", Method: get, Path: "/v1/spaces/{spaceId}/integrations", Access: onSpace(read)}, s.listSpaceIntegrations)

	// OpenAPI specifications.
	handle(s, api, Route{ID: "listOpenAPISpecs", Method: get, Path: "/v1/orgs/{organizationId}/openapi", Access: onOrg(read)}, s.listOpenAPISpecs)
	handle(s, api, Route{ID: "createOpenAPISpec", Method: post, Path: "/v1/orgs/{organizationId}/openapi", Status: created, Access: onOrg(create), MaxBody: OpenAPISpecMaxBody}, s.createOpenAPISpec)
	handle(s, api, Route{ID: "getOpenAPISpecBySlug", Method: get, Path: "/v1/orgs/{organizationId}/openapi/{specSlug}", Access: onOrg(read)}, s.getOpenAPISpec)
	handle(s, api, Route{ID: "createOrUpdateOpenAPISpecBySlug", Method: put, Path: "/v1/orgs/{organizationId}/openapi/{specSlug}", Access: onOrg(create), MaxBody: OpenAPISpecMaxBody}, s.putOpenAPISpec)
	handle(s, api, Route{ID: "deleteOpenAPISpecBySlug", Method: del, Path: "/v1/orgs/{organizationId}/openapi/{specSlug}", Access: onOrg(create)}, s.deleteOpenAPISpec)
	handle(s, api, Route{ID: "updateOpenAPISpecBySlug", Method: patch, Path: "/v1/orgs/{organizationId}/openapi/{specSlug}", Access: onOrg(create), MaxBody: OpenAPISpecMaxBody}, s.updateOpenAPISpec)
	handle(s, api, Route{ID: "listOpenAPISpecVersions", Method: get, Path: "/v1/orgs/{organizationId}/openapi/{specSlug}/versions", Access: onOrg(read)}, s.listOpenAPIVersions)
	handle(s, api, Route{ID: "getLatestOpenAPISpecVersion", Method: get, Path: "/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest", Access: onOrg(read)}, s.getLatestOpenAPIVersion)
	handle(s, api, Route{ID: "getLatestOpenAPISpecVersionContent", Method: get, Path: "/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content", Access: onOrg(read)}, s.getLatestOpenAPIContent)
	handle(s, api, Route{ID: "getOpenAPISpecVersionById", Method: get, Path: "/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}", Access: onOrg(read)}, s.getOpenAPIVersion)
	handle(s, api, Route{ID: "getOpenAPISpecVersionContentById", Method: get, Path: "/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content", Access: onOrg(read)}, s.getOpenAPIContent)
	handle(s, api, Route{ID: "downloadOpenAPISpecFile", Method: get, Path: "/v1/openapi-files/{specId}/{versionId}", Access: signedLink()}, s.downloadOpenAPIFile)

	s.describeRoutes(api, routeDocs())
}
