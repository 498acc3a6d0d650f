package httpapi

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"quire/internal/quire"
	"quire/internal/service"
)

// accessRow is the expected row of the authorization table for one
// operation: the subject kind and the minimum level. For operations open
// to any authenticated caller (ScopeNone), anyUser gives the status each
// caller gets instead.
type accessRow struct {
	scope   service.Scope
	min     quire.Level
	anyUser func(caller string) int
	// absentOK marks a DELETE of the subject itself: callers who cannot
	// see it get 204 ("nothing to delete") instead of 404, and nothing is
	// deleted.
	absentOK bool
	// public marks an operation served without a token, on a signed link.
	public bool
}

// orAbsent marks a row as a DELETE of its subject.
func (r accessRow) orAbsent() accessRow {
	r.absentOK = true
	return r
}

func orgRow(min quire.Level) accessRow   { return accessRow{scope: service.ScopeOrganization, min: min} }
func spaceRow(min quire.Level) accessRow { return accessRow{scope: service.ScopeSpace, min: min} }
func siteRow(min quire.Level) accessRow  { return accessRow{scope: service.ScopeSite, min: min} }
func collRow(min quire.Level) accessRow  { return accessRow{scope: service.ScopeCollection, min: min} }
func openRow(f func(caller string) int) accessRow {
	return accessRow{scope: service.ScopeNone, anyUser: f}
}

// signedRow is the row of an operation served on a signed link: every
// caller, with or without a token, gets what the link grants.
func signedRow() accessRow {
	return accessRow{scope: service.ScopeNone, anyUser: everyone(http.StatusOK), public: true}
}

// everyone answers the same status to every caller.
func everyone(status int) func(string) int { return func(string) int { return status } }

// expectedAccess is the authorization table as this test expects it. It
// must name every operation of the route table, and each row must match
// the route's declaration and the server's behaviour.
var expectedAccess = map[string]accessRow{
	"getApiInformation":                     openRow(everyone(http.StatusOK)),
	"getAuthenticatedUser":                  openRow(everyone(http.StatusOK)),
	"listOrganizationsForAuthenticatedUser": openRow(everyone(http.StatusOK)),
	// Joining needs an allowed email domain: the members are already in
	// and get 204; the outsider, whose domain is not allowed, gets the 404
	// of an organization that does not exist.
	"joinOrganization": openRow(func(c string) int {
		if c == cNonMember {
			return http.StatusNotFound
		}
		return http.StatusNoContent
	}),
	// Callers may only look up their own email domain (acme.test here).
	"getOrganizationsForEmailDomain": openRow(func(c string) int {
		if c == cNonMember {
			return http.StatusForbidden
		}
		return http.StatusOK
	}),

	"getOrganizationById":                 orgRow(quire.LevelGuest),
	"updateOrganizationById":              orgRow(quire.LevelAdmin),
	"deleteOrganizationInviteById":        orgRow(quire.LevelAdmin),
	"updateOrganizationMemberLastSeenAt":  orgRow(quire.LevelGuest),
	"listSSOProviderLoginsInOrganization": orgRow(quire.LevelGuest),

	"listMembersInOrganizationById":     orgRow(quire.LevelRead),
	"listAuditEventsInOrganizationById": orgRow(quire.LevelAdmin),
	"exportOrganization":                orgRow(quire.LevelAdmin),
	"getMemberInOrganizationById":       orgRow(quire.LevelRead),
	"updateMemberInOrganizationById":    orgRow(quire.LevelAdmin),
	"removeMemberFromOrganizationById":  orgRow(quire.LevelAdmin),
	"setUserAsSSOMemberForOrganization": orgRow(quire.LevelAdmin),
	"listSpacesForOrganizationMember":   orgRow(quire.LevelRead),
	"listTeamsForOrganizationMember":    orgRow(quire.LevelRead),

	"listTeamsInOrganizationById":    orgRow(quire.LevelRead),
	"createOrganizationTeam":         orgRow(quire.LevelAdmin),
	"getTeamInOrganizationById":      orgRow(quire.LevelRead),
	"updateTeamInOrganizationById":   orgRow(quire.LevelAdmin),
	"removeTeamFromOrganizationById": orgRow(quire.LevelAdmin),

	"listCollectionsInOrganizationById": orgRow(quire.LevelRead),
	"createCollection":                  orgRow(quire.LevelCreate),
	"getCollectionById":                 collRow(quire.LevelRead),
	"updateCollectionById":              collRow(quire.LevelAdmin),
	"deleteCollectionById":              collRow(quire.LevelAdmin).orAbsent(),
	"listSpacesInCollectionById":        collRow(quire.LevelRead),
	"moveCollection":                    collRow(quire.LevelAdmin),
	"transferCollection":                collRow(quire.LevelAdmin),

	"listSpacesInOrganizationById": orgRow(quire.LevelRead),
	"searchOrganizationContent":    orgRow(quire.LevelGuest),
	"searchSpaceContent":           spaceRow(quire.LevelRead),
	"createSpace":                  orgRow(quire.LevelCreate),
	"getSpaceById":                 spaceRow(quire.LevelRead),
	"updateSpaceById":              spaceRow(quire.LevelAdmin),
	"deleteSpaceById":              spaceRow(quire.LevelAdmin).orAbsent(),
	"duplicateSpace":               spaceRow(quire.LevelCreate),
	"restoreSpace":                 spaceRow(quire.LevelAdmin),
	"moveSpace":                    spaceRow(quire.LevelAdmin),
	"transferSpace":                spaceRow(quire.LevelAdmin),

	"inviteToSpace":               spaceRow(quire.LevelAdmin),
	"listTeamPermissionsInSpace":  spaceRow(quire.LevelRead),
	"updateTeamPermissionInSpace": spaceRow(quire.LevelAdmin),
	"removeTeamFromSpace":         spaceRow(quire.LevelAdmin),
	"listUserPermissionsInSpace":  spaceRow(quire.LevelRead),
	"updateUserPermissionInSpace": spaceRow(quire.LevelAdmin),
	"removeUserFromSpace":         spaceRow(quire.LevelAdmin),

	"listChangeRequestsForSpace":        spaceRow(quire.LevelRead),
	"createChangeRequest":               spaceRow(quire.LevelEdit),
	"getChangeRequestById":              spaceRow(quire.LevelRead),
	"updateChangeRequestById":           spaceRow(quire.LevelEdit),
	"listChangeRequestsForOrganization": orgRow(quire.LevelRead),

	"updateChangeRequestContent":     spaceRow(quire.LevelEdit),
	"mergeChangeRequest":             spaceRow(quire.LevelEdit),
	"updateChangeRequest":            spaceRow(quire.LevelEdit),
	"getRevisionOfChangeRequestById": spaceRow(quire.LevelRead),
	"listPagesInChangeRequest":       spaceRow(quire.LevelRead),
	"listFilesInChangeRequestById":   spaceRow(quire.LevelRead),
	"getFileInChangeRequestById":     spaceRow(quire.LevelRead),
	"getPageInChangeRequestById":     spaceRow(quire.LevelRead),
	"getPageInChangeRequestByPath":   spaceRow(quire.LevelRead),
	"listChangeRequestLinks":         spaceRow(quire.LevelRead),
	"listPageLinksInChangeRequest":   spaceRow(quire.LevelRead),
	"listChangeRequestPageBacklinks": spaceRow(quire.LevelRead),
	"listChangeRequestFileBacklinks": spaceRow(quire.LevelRead),
	"listSpaceLinks":                 spaceRow(quire.LevelRead),
	"listPageLinksInSpace":           spaceRow(quire.LevelRead),
	"listSpacePageBacklinks":         spaceRow(quire.LevelRead),
	"listSpaceFileBacklinks":         spaceRow(quire.LevelRead),

	"getCurrentRevision":   spaceRow(quire.LevelRead),
	"listPages":            spaceRow(quire.LevelRead),
	"listFiles":            spaceRow(quire.LevelRead),
	"getFileById":          spaceRow(quire.LevelRead),
	"getPageById":          spaceRow(quire.LevelRead),
	"getPageByPath":        spaceRow(quire.LevelRead),
	"applyTemplateToSpace": spaceRow(quire.LevelEdit),
	"importContent":        spaceRow(quire.LevelEdit),

	"importContentInChangeRequest": spaceRow(quire.LevelEdit),
	"importGitRepository":          spaceRow(quire.LevelEdit),
	"exportToGitRepository":        spaceRow(quire.LevelEdit),
	"getSpaceGitInfo":              spaceRow(quire.LevelRead),
	"deleteLegacyGitInstallation":  spaceRow(quire.LevelAdmin),

	"listCommentsInSpace":       spaceRow(quire.LevelRead),
	"postCommentInSpace":        spaceRow(quire.LevelComment),
	"getCommentInSpace":         spaceRow(quire.LevelRead),
	"updateCommentInSpace":      spaceRow(quire.LevelComment),
	"deleteCommentInSpace":      spaceRow(quire.LevelComment),
	"listCommentRepliesInSpace": spaceRow(quire.LevelRead),
	"postCommentReplyInSpace":   spaceRow(quire.LevelComment),
	"getCommentReplyInSpace":    spaceRow(quire.LevelRead),
	"updateCommentReplyInSpace": spaceRow(quire.LevelComment),
	"deleteCommentReplyInSpace": spaceRow(quire.LevelComment),

	"listCommentsInChangeRequest":       spaceRow(quire.LevelRead),
	"postCommentInChangeRequest":        spaceRow(quire.LevelComment),
	"getCommentInChangeRequest":         spaceRow(quire.LevelRead),
	"updateCommentInChangeRequest":      spaceRow(quire.LevelComment),
	"deleteCommentInChangeRequest":      spaceRow(quire.LevelComment),
	"listCommentRepliesInChangeRequest": spaceRow(quire.LevelRead),
	"postCommentReplyInChangeRequest":   spaceRow(quire.LevelComment),
	"getCommentReplyInChangeRequest":    spaceRow(quire.LevelRead),

	"getRevisionById":          spaceRow(quire.LevelRead),
	"listPagesInRevisionById":  spaceRow(quire.LevelRead),
	"listFilesInRevisionById":  spaceRow(quire.LevelRead),
	"getFileInRevisionById":    spaceRow(quire.LevelRead),
	"downloadFileInRevision":   spaceRow(quire.LevelRead),
	"downloadFileBySignedLink": signedRow(),
	"getSpacePDF":              spaceRow(quire.LevelRead),
	"getChangeRequestPDF":      spaceRow(quire.LevelRead),
	"downloadPDFBySignedLink":  signedRow(),
	"getPageInRevisionById":    spaceRow(quire.LevelRead),
	"getPageInRevisionByPath":  spaceRow(quire.LevelRead),

	"listSAMLProvidersInOrganizationById": orgRow(quire.LevelAdmin),
	"createOrganizationSAMLProvider":      orgRow(quire.LevelAdmin),
	"getOrganizationSAMLProviderById":     orgRow(quire.LevelAdmin),
	"updateOrganizationSAMLProvider":      orgRow(quire.LevelAdmin),
	"deleteOrganizationSAMLProvider":      orgRow(quire.LevelAdmin),
	// Sites: members read, the create role and above change.
	"listSites":                                orgRow(quire.LevelRead),
	"createSite":                               orgRow(quire.LevelCreate),
	"getSiteById":                              siteRow(quire.LevelRead),
	"updateSiteById":                           orgRow(quire.LevelCreate),
	"deleteSiteById":                           orgRow(quire.LevelCreate),
	"publishSite":                              orgRow(quire.LevelCreate),
	"unpublishSite":                            orgRow(quire.LevelCreate),
	"getSiteStructure":                         siteRow(quire.LevelRead),
	"sortSiteStructure":                        orgRow(quire.LevelCreate),
	"getSiteAdaptiveSchema":                    orgRow(quire.LevelRead),
	"updateSiteAdaptiveSchema":                 orgRow(quire.LevelCreate),
	"listSiteAdaptiveTemplateConditions":       orgRow(quire.LevelRead),
	"getPublishedContentSite":                  orgRow(quire.LevelRead),
	"getSiteCustomizationById":                 orgRow(quire.LevelRead),
	"updateSiteCustomizationById":              orgRow(quire.LevelCreate),
	"listSiteShareLinks":                       orgRow(quire.LevelRead),
	"createSiteShareLink":                      orgRow(quire.LevelCreate),
	"updateSiteShareLinkById":                  orgRow(quire.LevelCreate),
	"deleteSiteShareLinkById":                  orgRow(quire.LevelCreate),
	"getSitePublishingAuthById":                orgRow(quire.LevelAdmin),
	"updateSitePublishingAuthById":             orgRow(quire.LevelAdmin),
	"regenerateSitePublishingAuthById":         orgRow(quire.LevelAdmin),
	"listSiteSections":                         orgRow(quire.LevelRead),
	"addSectionToSite":                         orgRow(quire.LevelCreate),
	"updateSiteSectionById":                    orgRow(quire.LevelCreate),
	"deleteSiteSectionById":                    orgRow(quire.LevelCreate),
	"moveSiteSection":                          orgRow(quire.LevelCreate),
	"listSiteSectionGroups":                    orgRow(quire.LevelRead),
	"addSectionGroupToSite":                    orgRow(quire.LevelCreate),
	"updateSiteSectionGroupById":               orgRow(quire.LevelCreate),
	"deleteSiteSectionGroupById":               orgRow(quire.LevelCreate),
	"addSectionToGroup":                        orgRow(quire.LevelCreate),
	"removeSectionFromGroup":                   orgRow(quire.LevelCreate),
	"moveSiteSectionGroup":                     orgRow(quire.LevelCreate),
	"listSiteSpaces":                           orgRow(quire.LevelRead),
	"addSpaceToSite":                           orgRow(quire.LevelCreate),
	"updateSiteSpaceById":                      orgRow(quire.LevelCreate),
	"deleteSiteSpaceById":                      orgRow(quire.LevelCreate),
	"moveSiteSpace":                            orgRow(quire.LevelCreate),
	"getReviewsByChangeRequestId":              spaceRow(quire.LevelRead),
	"submitChangeRequestReview":                spaceRow(quire.LevelReview),
	"getRequestedReviewersByChangeRequestId":   spaceRow(quire.LevelRead),
	"requestReviewersForChangeRequest":         spaceRow(quire.LevelEdit),
	"removeRequestedReviewerFromChangeRequest": spaceRow(quire.LevelEdit),
	"listTranslations":                         orgRow(quire.LevelRead),
	"createTranslation":                        orgRow(quire.LevelCreate),
	"getTranslation":                           orgRow(quire.LevelRead),
	"updateTranslation":                        orgRow(quire.LevelCreate),
	"deleteTranslation":                        orgRow(quire.LevelCreate),
	"runTranslation":                           orgRow(quire.LevelCreate),
	"listOpenAPISpecs":                         orgRow(quire.LevelRead),
	"createOpenAPISpec":                        orgRow(quire.LevelCreate),
	"getOpenAPISpecBySlug":                     orgRow(quire.LevelRead),
	"createOrUpdateOpenAPISpecBySlug":          orgRow(quire.LevelCreate),
	"deleteOpenAPISpecBySlug":                  orgRow(quire.LevelCreate),
	"updateOpenAPISpecBySlug":                  orgRow(quire.LevelCreate),
	"listOpenAPISpecVersions":                  orgRow(quire.LevelRead),
	"getLatestOpenAPISpecVersion":              orgRow(quire.LevelRead),
	"getLatestOpenAPISpecVersionContent":       orgRow(quire.LevelRead),
	"getOpenAPISpecVersionById":                orgRow(quire.LevelRead),
	"getOpenAPISpecVersionContentById":         orgRow(quire.LevelRead),
	"downloadOpenAPISpecFile":                  signedRow(),
}

// matrix holds what the cases of the authorization matrix share.
type matrix struct {
	ts *testServer
	// org2 is a second organization where the fixture admin is admin, the
	// target of transfers.
	org2 string
	// guestRead is a guest of the organization given read on every space
	// the cases create.
	guestRead *testUser
	// content is a space with content that the read cases share; reads
	// change nothing, so one is enough.
	content *contentFixture
	// spec is the slug of the OpenAPI specification the read cases share.
	spec string
}

// Callers of the matrix besides the fixture users.
const cGuestRead = "guest+read"

// matrixCallers are the callers every operation is tried with.
var matrixCallers = []string{cAdmin, cCreate, cEdit, cReview, cComment, cRead, cGuest, cGuestRead, cNonMember}

// tokenOf returns a matrix caller's token.
func (m *matrix) tokenOf(c string) string {
	if c == cGuestRead {
		return m.guestRead.Token
	}
	return m.ts.token(c)
}

// level is the level a caller has on a subject the cases create: members
// get their role (spaces and collections inherit the organization's
// default, read), guests nothing but their grants, outsiders nothing.
func (m *matrix) level(scope service.Scope, c string) quire.Level {
	switch c {
	case cNonMember:
		return quire.LevelNone
	case cGuest:
		return quire.LevelGuest
	case cGuestRead:
		if scope == service.ScopeSpace {
			return quire.LevelRead
		}
		return quire.LevelGuest
	}
	return quire.Role(c).Level()
}

// space creates a space the guestRead caller may read.
func (m *matrix) space(t *testing.T) string {
	t.Helper()
	id := m.ts.newSpace(t, "Matrix space")
	m.ts.grantUser(t, id, m.guestRead.ID, "read")
	return id
}

// syncedSpace returns a space with a Git Sync record.
func (m *matrix) syncedSpace(t *testing.T) string {
	t.Helper()
	id := m.space(t)
	now := time.Now().UTC().Truncate(time.Millisecond)
	err := m.ts.Store.PutGitSync(t.Context(), &quire.GitSync{SpaceID: id, Provider: quire.GitProviderGitHub,
		URL: "https://git.example/acme/docs.git", RepoName: "acme/docs", Ref: "refs/heads/main",
		Direction: quire.GitImport, State: quire.GitSuccess, StartedAt: now, UpdatedAt: now, CompletedAt: &now})
	if err != nil {
		t.Fatalf("record Git Sync: %v", err)
	}
	return id
}

// sharedContent returns the content fixture the read cases share,
// creating it on first use.
func (m *matrix) sharedContent(t *testing.T) *contentFixture {
	t.Helper()
	if m.content == nil {
		m.content = m.ts.newContentFixture(t, m.space(t))
	}
	return m.content
}

// contentRead is the case of a read of content: ok for callers who may
// read, with the shared fixture's ids as path parameters.
func contentRead() authzCase {
	return authzCase{ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		f := m.sharedContent(t)
		return pathParams("spaceId", f.Space, "changeRequestId", f.CR, "revisionId", f.MainRevision,
			"pageId", f.Page, "pagePath", f.ChildPath, "fileId", f.File), nil
	}}
}

// member creates a member with the read role.
func (m *matrix) member(t *testing.T) string {
	t.Helper()
	return m.ts.addUser(t, "m"+quire.NewID()+"@acme.test", "Matrix Member", m.ts.Org, quire.RoleRead).ID
}

// authzCase builds the request of one matrix case on fresh fixtures and
// names its success status. still, when set, checks after a refused call
// that the subject was left alone. beyond, when set, gives the status of
// a caller the route table lets through but a rule of the service refuses
// (0 for ok).
type authzCase struct {
	ok     int
	setup  func(t *testing.T, m *matrix) (params map[string]string, body any)
	still  func(t *testing.T, m *matrix, params map[string]string)
	beyond func(caller string) int
	// query, when set, is the request's query string.
	query string
}

// p builds path parameters.
func pathParams(kv ...string) map[string]string {
	out := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// authzCases are the requests of the matrix, keyed by operationId.
var authzCases = map[string]authzCase{
	"getApiInformation":                     {ok: 200},
	"getAuthenticatedUser":                  {ok: 200},
	"listOrganizationsForAuthenticatedUser": {ok: 200},
	"joinOrganization":                      {ok: 204},
	"getOrganizationsForEmailDomain":        {ok: 200},
	"getOrganizationById":                   {ok: 200},
	"updateOrganizationById": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return nil, map[string]any{"ai": true}
	}},
	"deleteOrganizationInviteById": {ok: 205, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("inviteId", m.ts.newInvite(t)), nil
	}},
	"updateOrganizationMemberLastSeenAt":  {ok: 200},
	"listSSOProviderLoginsInOrganization": {ok: 200},
	"listMembersInOrganizationById":       {ok: 200},
	"listAuditEventsInOrganizationById":   {ok: 200},
	"exportOrganization":                  {ok: 200},
	"getMemberInOrganizationById": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("userId", m.ts.user(cAdmin).ID), nil
	}},
	"updateMemberInOrganizationById": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("userId", m.member(t)), map[string]any{"role": "comment"}
	}},
	"removeMemberFromOrganizationById": {ok: 205,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) { return pathParams("userId", m.member(t)), nil },
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			m.ts.must(t, 200, "GET", m.ts.OrgPath("/members/"+ps["userId"]), m.ts.token(cAdmin), nil)
		}},
	"setUserAsSSOMemberForOrganization": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("userId", m.member(t)), nil
	}},
	"listSpacesForOrganizationMember": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("userId", m.ts.user(cAdmin).ID), nil
	}},
	"listTeamsForOrganizationMember": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("userId", m.ts.user(cAdmin).ID), nil
	}},
	"listTeamsInOrganizationById": {ok: 200},
	"createOrganizationTeam": {ok: 201, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return nil, map[string]any{"title": "Matrix team"}
	}},
	"getTeamInOrganizationById": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("teamId", m.ts.newTeam(t, "Matrix team")), nil
	}},
	"updateTeamInOrganizationById": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("teamId", m.ts.newTeam(t, "Matrix team")), map[string]any{"title": "Renamed team"}
	}},
	"removeTeamFromOrganizationById": {ok: 205,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return pathParams("teamId", m.ts.newTeam(t, "Matrix team")), nil
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			m.ts.must(t, 200, "GET", m.ts.OrgPath("/teams/"+ps["teamId"]), m.ts.token(cAdmin), nil)
		}},
	"listCollectionsInOrganizationById": {ok: 200},
	"createCollection": {ok: 201, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return nil, map[string]any{"title": "Matrix collection"}
	}},
	"getCollectionById": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("collectionId", m.ts.newCollection(t, "Matrix collection", "")), nil
	}},
	"updateCollectionById": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("collectionId", m.ts.newCollection(t, "Matrix collection", "")), map[string]any{"description": "Changed"}
	}},
	"deleteCollectionById": {ok: 205,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return pathParams("collectionId", m.ts.newCollection(t, "Matrix collection", "")), nil
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			m.ts.must(t, 200, "GET", "/v1/collections/"+ps["collectionId"], m.ts.token(cAdmin), nil)
		}},
	"listSpacesInCollectionById": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("collectionId", m.ts.newCollection(t, "Matrix collection", "")), nil
	}},
	"moveCollection": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		id := m.ts.newCollection(t, "Moved collection", "")
		dest := m.ts.newCollection(t, "Destination", "")
		return pathParams("collectionId", id), map[string]any{"parent": dest}
	}},
	"transferCollection": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("collectionId", m.ts.newCollection(t, "Transferred collection", "")), map[string]any{"organization": m.org2}
	}},
	"listSpacesInOrganizationById": {ok: 200},
	"searchOrganizationContent":    {ok: 200, query: "query=matrix"},
	"searchSpaceContent": {ok: 200, query: "query=matrix", setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("spaceId", m.space(t)), nil
	}},
	"createSpace": {ok: 201, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return nil, map[string]any{"title": "Matrix space"}
	}},
	"getSpaceById": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("spaceId", m.space(t)), nil
	}},
	"updateSpaceById": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("spaceId", m.space(t)), map[string]any{"title": "Renamed space"}
	}},
	"deleteSpaceById": {ok: 205,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) { return pathParams("spaceId", m.space(t)), nil },
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			sp := m.ts.must(t, 200, "GET", "/v1/spaces/"+ps["spaceId"], m.ts.token(cAdmin), nil)
			wantAbsent(t, sp, "deletedAt")
		}},
	"duplicateSpace": {ok: 201, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("spaceId", m.space(t)), nil
	}},
	"restoreSpace": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		id := m.space(t)
		m.ts.must(t, 205, "DELETE", "/v1/spaces/"+id, m.ts.token(cAdmin), nil)
		return pathParams("spaceId", id), nil
	}},
	"moveSpace": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		id := m.space(t)
		return pathParams("spaceId", id), map[string]any{"parent": m.ts.newCollection(t, "Destination", "")}
	}},
	"transferSpace": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("spaceId", m.space(t)), map[string]any{"organization": m.org2}
	}},
	"inviteToSpace": {ok: 204, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("spaceId", m.space(t)), map[string]any{"role": "edit", "users": []string{m.member(t)}}
	}},
	"listTeamPermissionsInSpace": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("spaceId", m.space(t)), nil
	}},
	"updateTeamPermissionInSpace": {ok: 204, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		id, team := m.space(t), m.ts.newTeam(t, "Granted team")
		m.ts.grantTeam(t, id, team, "read")
		return pathParams("spaceId", id, "teamId", team), map[string]any{"role": "edit"}
	}},
	"removeTeamFromSpace": {ok: 205,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			id, team := m.space(t), m.ts.newTeam(t, "Granted team")
			m.ts.grantTeam(t, id, team, "read")
			return pathParams("spaceId", id, "teamId", team), nil
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			l := m.ts.must(t, 200, "GET", "/v1/spaces/"+ps["spaceId"]+"/permissions/teams", m.ts.token(cAdmin), nil)
			if got := ids(t, l, "team.id"); !slices.Equal(got, []string{ps["teamId"]}) {
				t.Errorf("team grants after a refused removal: %v", got)
			}
		}},
	"listUserPermissionsInSpace": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("spaceId", m.space(t)), nil
	}},
	"updateUserPermissionInSpace": {ok: 204, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		id, u := m.space(t), m.member(t)
		m.ts.grantUser(t, id, u, "read")
		return pathParams("spaceId", id, "userId", u), map[string]any{"role": "comment"}
	}},
	"removeUserFromSpace": {ok: 205,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			id, u := m.space(t), m.member(t)
			m.ts.grantUser(t, id, u, "read")
			return pathParams("spaceId", id, "userId", u), nil
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			l := m.ts.must(t, 200, "GET", "/v1/spaces/"+ps["spaceId"]+"/permissions/users", m.ts.token(cAdmin), nil)
			if !slices.Contains(ids(t, l, "user.id"), ps["userId"]) {
				t.Errorf("user grant gone after a refused removal")
			}
		}},
	"listChangeRequestsForSpace": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("spaceId", m.space(t)), nil
	}},
	"createChangeRequest": {ok: 201,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return pathParams("spaceId", m.space(t)), map[string]any{"subject": "Matrix change"}
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			sp := m.ts.must(t, 200, "GET", "/v1/spaces/"+ps["spaceId"], m.ts.token(cAdmin), nil)
			wantFields(t, sp, map[string]any{"changeRequests": 0})
		}},
	"getChangeRequestById": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		id := m.space(t)
		return pathParams("spaceId", id, "changeRequestId", str(m.ts.newChangeRequest(t, id, "Matrix change"), "id")), nil
	}},
	"updateChangeRequestById": {ok: 200,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			id := m.space(t)
			cr := m.ts.newChangeRequest(t, id, "Matrix change")
			return pathParams("spaceId", id, "changeRequestId", str(cr, "id")), map[string]any{"subject": "Renamed change"}
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			cr := m.ts.must(t, 200, "GET", crPathOf(ps), m.ts.token(cAdmin), nil)
			wantFields(t, cr, map[string]any{"subject": "Matrix change"})
		}},
	"listChangeRequestsForOrganization": {ok: 200},

	"updateChangeRequestContent": {ok: 200,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			id := m.space(t)
			cr := m.ts.newChangeRequest(t, id, "Matrix change")
			return pathParams("spaceId", id, "changeRequestId", str(cr, "id")),
				map[string]any{"changes": []any{insertPage("Matrix page", "Text.")}}
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			cr := m.ts.must(t, 200, "GET", crPathOf(ps), m.ts.token(cAdmin), nil)
			if cr["revision"] != cr["revisionInitial"] {
				t.Errorf("a refused content write made revision %v", cr["revision"])
			}
		}},
	"mergeChangeRequest": {ok: 200,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			id := m.space(t)
			cr := str(m.ts.newChangeRequest(t, id, "Matrix change"), "id")
			m.ts.writeContent(t, id, cr, insertPage("Matrix page", "Text."))
			return pathParams("spaceId", id, "changeRequestId", cr), nil
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			wantFields(t, m.ts.must(t, 200, "GET", crPathOf(ps), m.ts.token(cAdmin), nil), map[string]any{"status": "draft"})
			l := m.ts.must(t, 200, "GET", spacePathOf(ps)+"/content/pages", m.ts.token(cAdmin), nil)
			wantFields(t, l, map[string]any{"pages": []any{}})
		}},
	"updateChangeRequest": {ok: 200,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			id := m.space(t)
			a := str(m.ts.newChangeRequest(t, id, "Merged first"), "id")
			b := str(m.ts.newChangeRequest(t, id, "Updated"), "id")
			m.ts.writeContent(t, id, a, insertPage("Matrix page", "Text."))
			m.ts.mergeCR(t, id, a)
			return pathParams("spaceId", id, "changeRequestId", b), nil
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			cr := m.ts.must(t, 200, "GET", crPathOf(ps), m.ts.token(cAdmin), nil)
			wantFields(t, cr, map[string]any{"outdated": true, "revision": cr["revisionInitial"]})
		}},
	"getRevisionOfChangeRequestById": contentRead(),
	"listPagesInChangeRequest":       contentRead(),
	"listFilesInChangeRequestById":   contentRead(),
	"getFileInChangeRequestById":     contentRead(),
	"getPageInChangeRequestById":     contentRead(),
	"getPageInChangeRequestByPath":   contentRead(),
	"listChangeRequestLinks":         contentRead(),
	"listPageLinksInChangeRequest":   contentRead(),
	"listChangeRequestPageBacklinks": contentRead(),
	"listChangeRequestFileBacklinks": contentRead(),
	"listSpaceLinks":                 contentRead(),
	"listPageLinksInSpace":           contentRead(),
	"listSpacePageBacklinks":         contentRead(),
	"listSpaceFileBacklinks":         contentRead(),
	"getCurrentRevision":             contentRead(),
	"listPages":                      contentRead(),
	"listFiles":                      contentRead(),
	"getFileById":                    contentRead(),
	"getPageById":                    contentRead(),
	"getPageByPath":                  contentRead(),
	"importContent": {ok: 201,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return pathParams("spaceId", m.space(t)), map[string]any{"url": importServer(t).URL + "/notes.md", "source": "markdown"}
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			l := m.ts.must(t, 200, "GET", spacePathOf(ps)+"/content/pages", m.ts.token(cAdmin), nil)
			wantFields(t, l, map[string]any{"pages": []any{}})
		}},
	"importContentInChangeRequest": {ok: 201,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			space := m.space(t)
			cr := str(m.ts.newChangeRequest(t, space, "Import"), "id")
			return pathParams("spaceId", space, "changeRequestId", cr),
				map[string]any{"url": importServer(t).URL + "/notes.md", "source": "markdown"}
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			l := m.ts.must(t, 200, "GET", crPathOf(ps)+"/content/pages", m.ts.token(cAdmin), nil)
			wantFields(t, l, map[string]any{"pages": []any{}})
		}},
	"importGitRepository": {ok: 204,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return pathParams("spaceId", m.space(t)), map[string]any{"url": bareRepo(t), "ref": "refs/heads/main"}
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			m.ts.mustError(t, 404, "GET", spacePathOf(ps)+"/git/info", m.ts.token(cAdmin), nil)
		}},
	"exportToGitRepository": {ok: 204,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return pathParams("spaceId", m.space(t)), map[string]any{"url": bareRepo(t), "ref": "refs/heads/main", "commitMessage": "Export"}
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			m.ts.mustError(t, 404, "GET", spacePathOf(ps)+"/git/info", m.ts.token(cAdmin), nil)
		}},
	"getSpaceGitInfo": {ok: 200,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return pathParams("spaceId", m.syncedSpace(t)), nil
		}},
	"deleteLegacyGitInstallation": {ok: 205,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return pathParams("spaceId", m.syncedSpace(t)), nil
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			m.ts.must(t, 200, "GET", spacePathOf(ps)+"/git/info", m.ts.token(cAdmin), nil)
		}},
	"applyTemplateToSpace": {ok: 201,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return pathParams("spaceId", m.space(t)), map[string]any{"id": "knowledge-base"}
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			l := m.ts.must(t, 200, "GET", spacePathOf(ps)+"/content/pages", m.ts.token(cAdmin), nil)
			wantFields(t, l, map[string]any{"pages": []any{}})
		}},
	"getRevisionById":           contentRead(),
	"listCommentsInSpace":       commentRead(false),
	"getCommentInSpace":         commentRead(false),
	"listCommentRepliesInSpace": commentRead(false),
	"getCommentReplyInSpace":    commentRead(false),
	"postCommentInSpace":        commentPost(false),
	"updateCommentInSpace":      commentResolve(false),
	"deleteCommentInSpace":      commentDelete(false),
	"postCommentReplyInSpace":   replyPost(false),
	"updateCommentReplyInSpace": replyReact(),
	"deleteCommentReplyInSpace": replyDelete(),

	"listCommentsInChangeRequest":       commentRead(true),
	"getCommentInChangeRequest":         commentRead(true),
	"listCommentRepliesInChangeRequest": commentRead(true),
	"getCommentReplyInChangeRequest":    commentRead(true),
	"postCommentInChangeRequest":        commentPost(true),
	"updateCommentInChangeRequest":      commentResolve(true),
	"deleteCommentInChangeRequest":      commentDelete(true),
	"postCommentReplyInChangeRequest":   replyPost(true),
	"listPagesInRevisionById":           contentRead(),
	"listFilesInRevisionById":           contentRead(),
	"getFileInRevisionById":             contentRead(),
	"downloadFileInRevision":            contentRead(),
	"downloadFileBySignedLink": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		f := m.sharedContent(t)
		file := m.ts.must(t, 200, "GET", "/v1/spaces/"+f.Space+"/revisions/"+f.MainRevision+"/files/"+f.File, m.ts.token(cAdmin), nil)
		link := signedLinkParams(t, str(file, "downloadURL"))
		return link, nil
	}},
	"getPageInRevisionById":   contentRead(),
	"getPageInRevisionByPath": contentRead(),
	"getSpacePDF": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("spaceId", m.sharedContent(t).Space), nil
	}},
	"getChangeRequestPDF": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		f := m.sharedContent(t)
		return pathParams("spaceId", f.Space, "changeRequestId", f.CR), nil
	}},
	"downloadPDFBySignedLink": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		f := m.sharedContent(t)
		res := m.ts.must(t, 200, "GET", "/v1/spaces/"+f.Space+"/pdf", m.ts.token(cAdmin), nil)
		return pdfLinkParams(t, str(res, "url")), nil
	}},

	"listSAMLProvidersInOrganizationById": {ok: 200},
	"createOrganizationSAMLProvider": {ok: 201,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			label := "IdP " + quire.NewID()
			return pathParams("label", label), map[string]any{"label": label}
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			l := m.ts.must(t, 200, "GET", m.ts.OrgPath("/saml?limit=1000"), m.ts.token(cAdmin), nil)
			for _, p := range items(t, l) {
				if p["label"] == ps["label"] {
					t.Errorf("a refused create made provider %s", ps["label"])
				}
			}
		}},
	"getOrganizationSAMLProviderById": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("samlProviderId", m.ts.newSAMLProvider(t, "Matrix IdP")), nil
	}},
	"updateOrganizationSAMLProvider": {ok: 200,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return pathParams("samlProviderId", m.ts.newSAMLProvider(t, "Matrix IdP")), map[string]any{"label": "Renamed IdP"}
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			p := m.ts.must(t, 200, "GET", m.ts.OrgPath("/saml/"+ps["samlProviderId"]), m.ts.token(cAdmin), nil)
			wantFields(t, p, map[string]any{"label": "Matrix IdP"})
		}},
	"deleteOrganizationSAMLProvider": {ok: 205,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return pathParams("samlProviderId", m.ts.newSAMLProvider(t, "Matrix IdP")), nil
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			m.ts.must(t, 200, "GET", m.ts.OrgPath("/saml/"+ps["samlProviderId"]), m.ts.token(cAdmin), nil)
		}},
	// Sites.
	"listSites": {ok: 200},
	"createSite": {ok: 201, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return nil, map[string]any{"title": "New site"}
	}},
	"getSiteById": siteCase(200, nil),
	"updateSiteById": siteChange(200, func(t *testing.T, m *matrix, f siteFixture) any {
		return map[string]any{"title": "Renamed site"}
	}),
	"deleteSiteById":   siteChange(205, nil),
	"publishSite":      siteCase(200, nil),
	"unpublishSite":    siteChange(200, nil),
	"getSiteStructure": siteCase(200, nil),
	"sortSiteStructure": siteChange(200, func(t *testing.T, m *matrix, f siteFixture) any {
		return map[string]any{"item": map[string]any{"type": "site-section-group", "id": f.group},
			"position": map[string]any{"before": map[string]any{"type": "site-section", "id": f.section}}}
	}),
	"getSiteAdaptiveSchema": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		f := m.ts.newSiteFixture(t)
		m.ts.must(t, 200, "PUT", m.ts.sitePath(f.site, "/adaptive-schema"), m.ts.token(cAdmin), map[string]any{"jsonSchema": visitorSchema()})
		return f.params(), nil
	}},
	"updateSiteAdaptiveSchema": {ok: 200,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return m.ts.newSiteFixture(t).params(), map[string]any{"jsonSchema": visitorSchema()}
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			m.ts.mustError(t, 404, "GET", m.ts.sitePath(ps["siteId"], "/adaptive-schema"), m.ts.token(cAdmin), nil)
		}},
	"listSiteAdaptiveTemplateConditions": siteCase(200, nil),
	"getPublishedContentSite":            siteCase(200, nil),
	"getSiteCustomizationById":           siteCase(200, nil),
	"updateSiteCustomizationById": {ok: 200,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return m.ts.newSiteFixture(t).params(), customization("Customized")
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			c := m.ts.must(t, 200, "GET", m.ts.sitePath(ps["siteId"], "/customization"), m.ts.token(cAdmin), nil)
			wantAbsent(t, c, "title")
		}},
	"listSiteShareLinks": siteCase(200, nil),
	"createSiteShareLink": siteCase(201, func(t *testing.T, m *matrix, f siteFixture) any {
		return map[string]any{"name": "Another"}
	}),
	"updateSiteShareLinkById": siteChange(200, func(t *testing.T, m *matrix, f siteFixture) any {
		return map[string]any{"active": false}
	}),
	"deleteSiteShareLinkById":   siteChange(205, nil),
	"getSitePublishingAuthById": siteCase(200, nil),
	"updateSitePublishingAuthById": {ok: 200,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return m.ts.newSiteFixture(t).params(), map[string]any{"backend": "custom", "fallbackURL": "https://example.com/sign-in"}
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			a := m.ts.must(t, 200, "GET", m.ts.sitePath(ps["siteId"], "/publishing/auth"), m.ts.token(cAdmin), nil)
			wantAbsent(t, a, "fallbackURL")
		}},
	"regenerateSitePublishingAuthById": {ok: 200,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			ps := m.ts.newSiteFixture(t).params()
			ps["privateKey"] = str(m.ts.must(t, 200, "GET", m.ts.sitePath(ps["siteId"], "/publishing/auth"), m.ts.token(cAdmin), nil), "privateKey")
			return ps, nil
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			a := m.ts.must(t, 200, "GET", m.ts.sitePath(ps["siteId"], "/publishing/auth"), m.ts.token(cAdmin), nil)
			wantFields(t, a, map[string]any{"privateKey": ps["privateKey"]})
		}},
	"listSiteSections": siteRead(),
	"addSectionToSite": siteCase(201, func(t *testing.T, m *matrix, f siteFixture) any {
		return map[string]any{"spaceId": m.space(t)}
	}),
	"updateSiteSectionById": siteChange(200, func(t *testing.T, m *matrix, f siteFixture) any {
		return map[string]any{"title": "Renamed section"}
	}),
	"deleteSiteSectionById": siteChange(205, nil),
	"moveSiteSection":       siteChange(200, nil),
	"listSiteSectionGroups": siteCase(200, nil),
	"addSectionGroupToSite": siteCase(201, func(t *testing.T, m *matrix, f siteFixture) any {
		return map[string]any{"title": "Another group"}
	}),
	"updateSiteSectionGroupById": siteChange(200, func(t *testing.T, m *matrix, f siteFixture) any {
		return map[string]any{"title": "Renamed group"}
	}),
	"deleteSiteSectionGroupById": siteChange(205, nil),
	"addSectionToGroup": siteChange(201, func(t *testing.T, m *matrix, f siteFixture) any {
		return map[string]any{"sectionId": f.section}
	}),
	"removeSectionFromGroup": {ok: 205,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			f := m.ts.newSiteFixture(t)
			m.ts.must(t, 201, "POST", m.ts.sitePath(f.site, "/section-groups/"+f.group+"/sections"), m.ts.token(cAdmin), map[string]any{"sectionId": f.section})
			return f.params(), nil
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			g := m.ts.must(t, 200, "GET", m.ts.sitePath(ps["siteId"], "/section-groups"), m.ts.token(cAdmin), nil)
			if got := ids(t, g, "sections.0.id"); !slices.Equal(got, []string{ps["siteSectionId"]}) {
				t.Errorf("group sections after a refused removal: %v", got)
			}
		}},
	"moveSiteSectionGroup": siteChange(200, func(t *testing.T, m *matrix, f siteFixture) any {
		return map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "id": f.section}}}
	}),
	"listSiteSpaces": siteRead(),
	"addSpaceToSite": siteCase(201, func(t *testing.T, m *matrix, f siteFixture) any {
		return map[string]any{"spaceId": m.space(t)}
	}),
	"updateSiteSpaceById": siteChange(200, func(t *testing.T, m *matrix, f siteFixture) any {
		return map[string]any{"path": "renamed"}
	}),
	"deleteSiteSpaceById":                    siteChange(205, nil),
	"moveSiteSpace":                          siteChange(200, nil),
	"getReviewsByChangeRequestId":            contentRead(),
	"getRequestedReviewersByChangeRequestId": contentRead(),
	"submitChangeRequestReview": {ok: 201,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			// Written by a member none of the callers is: authors cannot
			// review their own change requests.
			id := m.space(t)
			author := m.ts.addUser(t, "a"+quire.NewID()+"@acme.test", "Matrix Author", m.ts.Org, quire.RoleEdit)
			cr := m.ts.must(t, 201, "POST", "/v1/spaces/"+id+"/change-requests", author.Token, map[string]any{"subject": "Matrix change"})
			return pathParams("spaceId", id, "changeRequestId", str(cr, "id")),
				map[string]any{"status": "approved", "comment": md("Looks good.")}
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			wantFields(t, m.ts.must(t, 200, "GET", crPathOf(ps)+"/reviews", m.ts.token(cAdmin), nil), map[string]any{"count": 0})
			wantFields(t, m.ts.must(t, 200, "GET", crPathOf(ps), m.ts.token(cAdmin), nil), map[string]any{"comments": 0})
		}},
	"requestReviewersForChangeRequest": {ok: 200,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			id := m.space(t)
			cr := str(m.ts.newChangeRequest(t, id, "Matrix change"), "id")
			return pathParams("spaceId", id, "changeRequestId", cr), map[string]any{"users": []string{m.ts.user(cReview).ID}}
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			wantFields(t, m.ts.must(t, 200, "GET", crPathOf(ps)+"/requested-reviewers", m.ts.token(cAdmin), nil), map[string]any{"count": 0})
			wantFields(t, m.ts.must(t, 200, "GET", crPathOf(ps), m.ts.token(cAdmin), nil), map[string]any{"status": "draft"})
		}},
	"removeRequestedReviewerFromChangeRequest": {ok: 205,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			id := m.space(t)
			cr := str(m.ts.newChangeRequest(t, id, "Matrix change"), "id")
			m.ts.must(t, 200, "POST", crPath(id, cr, "/requested-reviewers"), m.ts.token(cAdmin),
				map[string]any{"users": []string{m.ts.user(cReview).ID}})
			return pathParams("spaceId", id, "changeRequestId", cr, "userId", m.ts.user(cReview).ID), nil
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			wantFields(t, m.ts.must(t, 200, "GET", crPathOf(ps)+"/requested-reviewers", m.ts.token(cAdmin), nil), map[string]any{"count": 1})
		}},
	"listTranslations": {ok: 200},
	"createTranslation": {ok: 201,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			sp := m.space(t)
			return pathParams("spaceId", sp), map[string]any{"source": map[string]any{"space": sp, "language": "en"}, "language": "de"}
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			l := m.ts.must(t, 200, "GET", m.ts.translationsPath("?limit=1000"), m.ts.token(cAdmin), nil)
			for _, it := range l["items"].([]any) {
				if str(it, "source.space") == ps["spaceId"] {
					t.Errorf("a refused create made translation %s", str(it, "id"))
				}
			}
		}},
	"getTranslation": {ok: 200, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("translationId", str(m.ts.newTranslation(t, m.space(t), "de"), "id")), nil
	}},
	"updateTranslation": {ok: 200,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return pathParams("translationId", str(m.ts.newTranslation(t, m.space(t), "de"), "id")),
				map[string]any{"instructions": docJSON(map[string]any{"object": "block", "type": "paragraph", "data": map[string]any{},
					"nodes": []any{textNode("Use the formal register.")}})["document"]}
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			tr := m.ts.must(t, 200, "GET", m.ts.translationsPath("/"+ps["translationId"]), m.ts.token(cAdmin), nil)
			wantFields(t, tr, map[string]any{"instructions.nodes": []any{}})
		}},
	"deleteTranslation": {ok: 205,
		setup: func(t *testing.T, m *matrix) (map[string]string, any) {
			return pathParams("translationId", str(m.ts.newTranslation(t, m.space(t), "de"), "id")), nil
		},
		still: func(t *testing.T, m *matrix, ps map[string]string) {
			m.ts.must(t, 200, "GET", m.ts.translationsPath("/"+ps["translationId"]), m.ts.token(cAdmin), nil)
		}},
	"runTranslation": {ok: 204, setup: func(t *testing.T, m *matrix) (map[string]string, any) {
		return pathParams("translationId", str(m.ts.newTranslation(t, m.space(t), "de"), "id")), nil
	}},
}

// The OpenAPI cases join the table.
func init() {
	for id, c := range openAPIAuthzCases() {
		authzCases[id] = c
	}
}

// declaredRoutes builds a server to read its route table.
func declaredRoutes(t *testing.T) []Route {
	t.Helper()
	s, _ := newServer(service.New(nil), Config{BaseURL: testBaseURL})
	return s.Routes()
}

var paramRE = regexp.MustCompile(`\{(\w+)\}`)

// fillPath substitutes path parameters; defaults cover the organization
// and the email domain.
func fillPath(t *testing.T, ts *testServer, path string, params map[string]string) string {
	t.Helper()
	return paramRE.ReplaceAllStringFunc(path, func(s string) string {
		name := s[1 : len(s)-1]
		if v, ok := params[name]; ok {
			return v
		}
		switch name {
		case "organizationId":
			return ts.Org
		case "emailDomain":
			return "acme.test"
		}
		t.Fatalf("no value for path parameter %s of %s", name, path)
		return ""
	})
}

// TestAuthzTableCoversRoutes checks that the expected table names exactly
// the declared operations and agrees with each declaration.
func TestAuthzTableCoversRoutes(t *testing.T) {
	t.Parallel()
	routes := declaredRoutes(t)
	seen := map[string]bool{}
	for _, r := range routes {
		if seen[r.ID] {
			t.Errorf("operationId %s declared twice", r.ID)
		}
		seen[r.ID] = true
		want, ok := expectedAccess[r.ID]
		if !ok {
			t.Errorf("route %s (%s %s) has no row in expectedAccess", r.ID, r.Method, r.Path)
			continue
		}
		if _, ok := authzCases[r.ID]; !ok {
			t.Errorf("route %s has no case in authzCases", r.ID)
		}
		if r.Access.scope != want.scope {
			t.Errorf("%s: scope %v, expected %v", r.ID, r.Access.scope, want.scope)
		}
		if want.scope != service.ScopeNone && r.Access.min != want.min {
			t.Errorf("%s: minimum level %v, expected %v", r.ID, r.Access.min, want.min)
		}
		if r.Access.public != want.public {
			t.Errorf("%s: public %v, expected %v", r.ID, r.Access.public, want.public)
		}
		if r.Access.absentOK != want.absentOK {
			t.Errorf("%s: absentOK %v, expected %v", r.ID, r.Access.absentOK, want.absentOK)
		}
	}
	for id := range expectedAccess {
		if !seen[id] {
			t.Errorf("expectedAccess names %s, which is not a declared route", id)
		}
	}
	for id := range authzCases {
		if !seen[id] {
			t.Errorf("authzCases names %s, which is not a declared route", id)
		}
	}
}

// TestAuthzMatrix calls every operation as every kind of caller and checks
// that it is let through exactly when the caller's level reaches the
// operation's minimum.
func TestAuthzMatrix(t *testing.T) {
	t.Parallel()
	routes := declaredRoutes(t)
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		m := &matrix{ts: ts}
		ts.must(t, 200, "PATCH", ts.OrgPath(""), ts.token(cAdmin), map[string]any{"emailDomains": []string{"acme.test"}})
		m.org2, _ = ts.secondOrg(t, "Second Org", "owner@second.test")
		m.guestRead = ts.addUser(t, "guest2@acme.test", "Gina Guest", ts.Org, "")

		for _, r := range routes {
			row, c := expectedAccess[r.ID], authzCases[r.ID]
			if c.ok == 0 {
				t.Errorf("%s: no case", r.ID)
				continue
			}
			t.Run(r.ID, func(t *testing.T) {
				for _, caller := range matrixCallers {
					var want int
					switch {
					case row.scope == service.ScopeNone:
						want = row.anyUser(caller)
					case m.level(row.scope, caller) >= row.min && c.beyond != nil && c.beyond(caller) != 0:
						want = c.beyond(caller)
					case m.level(row.scope, caller) >= row.min:
						want = c.ok
					case m.level(row.scope, caller) < visibleAt(row.scope) && row.absentOK:
						want = http.StatusNoContent
					case m.level(row.scope, caller) < visibleAt(row.scope):
						want = http.StatusNotFound
					default:
						want = http.StatusForbidden
					}
					res, params := m.call(t, r, c, m.tokenOf(caller))
					if res.Status != want {
						t.Errorf("%s as %s: status %d, want %d: %s", r.ID, caller, res.Status, want, res.Body)
						continue
					}
					if want >= 400 {
						checkErrorBody(t, res)
					}
					if want != c.ok && c.still != nil {
						c.still(t, m, params)
					}
				}
			})
		}
	})
}

// call sends the request of route r's case c with token, after the case's
// setup, and returns the answer and the path parameters it filled in.
func (m *matrix) call(t *testing.T, r Route, c authzCase, token string) (response, map[string]string) {
	t.Helper()
	var (
		params map[string]string
		body   any
	)
	if c.setup != nil {
		params, body = c.setup(t, m)
	}
	path := fillPath(t, m.ts, r.Path, params)
	if c.query != "" {
		path += "?" + c.query
	}
	return m.ts.send(t, r.Method, path, token, body), params
}

// visibleAt is the level below which a subject answers 404: members and
// guests see their organization, content needs read.
func visibleAt(scope service.Scope) quire.Level {
	if scope == service.ScopeOrganization || scope == service.ScopeSite {
		return quire.LevelGuest
	}
	return quire.LevelRead
}

// signedLinkParams splits a signed download URL into the path parameters
// of its route, the query riding on the last one.
func signedLinkParams(t *testing.T, link string) map[string]string {
	t.Helper()
	rest, ok := strings.CutPrefix(link, testBaseURL+"/v1/downloads/")
	parts := strings.Split(rest, "/")
	if !ok || len(parts) != 4 {
		t.Fatalf("not a signed download URL: %s", link)
	}
	return pathParams("spaceId", parts[0], "revisionId", parts[1], "fileId", parts[2], "fileName", parts[3])
}

// pdfLinkParams splits a PDF link into the path parameters of its route,
// the query riding on the last one.
func pdfLinkParams(t *testing.T, link string) map[string]string {
	t.Helper()
	rest, ok := strings.CutPrefix(link, testBaseURL+"/v1/pdfs/")
	parts := strings.Split(rest, "/")
	if !ok || len(parts) != 3 {
		t.Fatalf("not a PDF link: %s", link)
	}
	return pathParams("spaceId", parts[0], "revisionId", parts[1], "fileName", parts[2])
}

// TestUnauthenticated checks that every operation refuses a missing or
// invalid token with 401 before anything else, except those served on a
// signed link, which ignore the token and refuse a bad signature.
func TestUnauthenticated(t *testing.T) {
	t.Parallel()
	routes := declaredRoutes(t)
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		sp := ts.newSpace(t, "Shared")
		team := ts.newTeam(t, "Shared team")
		cr := ts.newChangeRequest(t, sp, "Shared change")
		params := pathParams("spaceId", sp, "collectionId", ts.newCollection(t, "Shared", ""), "teamId", team,
			"userId", ts.user(cRead).ID, "inviteId", ts.newInvite(t), "changeRequestId", str(cr, "id"),
			"revisionId", str(cr, "revision"), "pageId", "somepage", "pagePath", "some/page", "fileId", "somefile",
			"commentId", "somecomment", "commentReplyId", "somereply",
			"fileName", "some.png?expires=99999999999&signature=c29tZQ")
		params["samlProviderId"] = ts.newSAMLProvider(t, "Shared IdP")
		for k, v := range ts.newSiteFixture(t).params() {
			params[k] = v
		}
		params["translationId"] = "sometranslation"
		params["specSlug"] = ts.processedSpec(t)
		params["specId"], params["versionId"] = str(ts.must(t, 200, "GET", ts.specPath(params["specSlug"]), ts.token(cAdmin), nil), "id"),
			"latest?expires=99999999999&signature=c29tZQ"
		for k, v := range ts.integrationParams(t) {
			params[k] = v
		}
		id, _, _ := quire.ParseToken(ts.token(cAdmin))
		auths := map[string]string{
			"none":          "",
			"malformed":     "Bearer qt_x_y",
			"garbage":       "Bearer garbage",
			"empty bearer":  "Bearer ",
			"basic":         "Basic YWRtaW46YWRtaW4=",
			"wrong secret":  "Bearer qt_" + id + "_0000",
			"no scheme":     ts.token(cAdmin),
			"lower scheme":  "bearer garbage",
			"unknown token": "Bearer qt_" + quire.NewID() + "_abcdef",
		}
		for _, r := range routes {
			path := fillPath(t, ts, r.Path, params)
			for name, auth := range auths {
				res := ts.sendAuth(t, r.Method, path, auth, nil)
				if r.Access.public {
					// Served without a token: the bad signature is what
					// refuses it, whatever the token.
					if res.Status != http.StatusForbidden {
						t.Errorf("%s with %s token and a bad signature: status %d, want 403: %s", r.ID, name, res.Status, res.Body)
					}
					continue
				}
				if res.Status != http.StatusUnauthorized {
					t.Errorf("%s with %s token: status %d, want 401: %s", r.ID, name, res.Status, res.Body)
					continue
				}
				checkErrorBody(t, res)
			}
		}
		// Nothing was touched.
		s := ts.must(t, 200, "GET", "/v1/spaces/"+sp, ts.token(cAdmin), nil)
		wantAbsent(t, s, "deletedAt")
		ts.must(t, 200, "GET", ts.OrgPath("/teams/"+team), ts.token(cAdmin), nil)
		wantFields(t, ts.must(t, 200, "GET", "/v1/spaces/"+sp+"/change-requests/"+str(cr, "id"), ts.token(cAdmin), nil),
			map[string]any{"subject": "Shared change", "status": cr["status"]})
	})
}
