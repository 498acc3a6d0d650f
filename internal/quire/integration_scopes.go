package quire

import "slices"

// The published integration scopes (IntegrationScope of the API) that
// open operations to an installation's tokens, besides those declared in
// access.go.
const (
	ScopeSpaceGitSync      = "space:git:sync"
	ScopeSiteAdaptiveRead  = "site:adaptive:read"
	ScopeSiteAdaptiveWrite = "site:adaptive:write"
	ScopeOpenAPIRead       = "openapi:read"
	ScopeOpenAPIWrite      = "openapi:write"
)

// AnyScope is the scope of the table's row that every installation token
// holds, whatever its scopes: it reads its own organization and searches
// what its other scopes let it see.
const AnyScope = "*"

// ScopeTarget is what an installation must cover for a scope's operations
// to reach a subject.
type ScopeTarget string

// Scope targets.
const (
	// TargetSpace is a space the installation covers.
	TargetSpace ScopeTarget = "space"
	// TargetSite is a site the installation covers.
	TargetSite ScopeTarget = "site"
	// TargetOrganization is the installation's organization.
	TargetOrganization ScopeTarget = "organization"
)

// ScopeRule is one row of the integration scope table: the operations of
// the API (by operation id) that a scope lets an installation's token
// call on the subjects its installation covers, and, for an operation
// that changes only part of its subject, the body fields it may change.
type ScopeRule struct {
	Scope  string
	Target ScopeTarget
	// Operations are the operation ids the scope allows.
	Operations []string
	// Fields maps an operation to the only body fields the scope lets it
	// change; an operation absent from it changes what it changes.
	Fields map[string][]string
}

// IntegrationScopes is the scope table: every published scope with what
// it allows, after the row of AnyScope. A write scope allows the reads of its own area too, since
// what it changes must be read first. Scopes of features this server does
// not have (page feedback, site views and scripts, visitor
// authentication, conversations) allow no operation.
//
// space:metadata:write changes how a space is named and shown (title,
// emoji, icon, language); who may see or edit it (visibility, default
// level, merge rules, edit mode) stays with the space's admins.
func IntegrationScopes() []ScopeRule {
	// Operation ids shared by several rows.
	spaceMetadataReads := []string{"getSpaceById", "listSpaceIntegrations"}
	spaceContentReads := []string{
		"getSpaceById", "searchSpaceContent", "getSpacePDF",
		"getCurrentRevision", "listPages", "listFiles", "getFileById", "getPageById", "getPageByPath",
		"listSpaceLinks", "listPageLinksInSpace", "listSpacePageBacklinks", "listSpaceFileBacklinks",
		"getRevisionById", "listPagesInRevisionById", "listFilesInRevisionById", "getFileInRevisionById",
		"downloadFileInRevision", "getPageInRevisionById", "getPageInRevisionByPath",
		"listChangeRequestsForSpace", "getChangeRequestById", "getChangeRequestPDF",
		"getRevisionOfChangeRequestById", "listPagesInChangeRequest", "listFilesInChangeRequestById",
		"getFileInChangeRequestById", "getPageInChangeRequestById", "getPageInChangeRequestByPath",
		"listChangeRequestLinks", "listPageLinksInChangeRequest", "listChangeRequestPageBacklinks",
		"listChangeRequestFileBacklinks", "getReviewsByChangeRequestId", "getRequestedReviewersByChangeRequestId",
		"listCommentsInSpace", "getCommentInSpace", "listCommentRepliesInSpace", "getCommentReplyInSpace",
		"listCommentsInChangeRequest", "getCommentInChangeRequest", "listCommentRepliesInChangeRequest",
		"getCommentReplyInChangeRequest",
	}
	spaceContentWrites := []string{
		"createChangeRequest", "updateChangeRequestById", "updateChangeRequestContent",
		"importContentInChangeRequest", "mergeChangeRequest", "updateChangeRequest",
		"applyTemplateToSpace", "importContent",
		"submitChangeRequestReview", "requestReviewersForChangeRequest", "removeRequestedReviewerFromChangeRequest",
		"postCommentInSpace", "updateCommentInSpace", "deleteCommentInSpace",
		"postCommentReplyInSpace", "updateCommentReplyInSpace", "deleteCommentReplyInSpace",
		"postCommentInChangeRequest", "updateCommentInChangeRequest", "deleteCommentInChangeRequest",
		"postCommentReplyInChangeRequest",
	}
	openAPIReads := []string{
		"listOpenAPISpecs", "getOpenAPISpecBySlug", "listOpenAPISpecVersions", "getLatestOpenAPISpecVersion",
		"getLatestOpenAPISpecVersionContent", "getOpenAPISpecVersionById", "getOpenAPISpecVersionContentById",
	}
	siteAdaptiveReads := []string{"getSiteAdaptiveSchema", "listSiteAdaptiveTemplateConditions"}
	return []ScopeRule{
		{Scope: AnyScope, Target: TargetOrganization, Operations: []string{"getOrganizationById", "searchOrganizationContent"}},
		{Scope: ScopeSpaceContentRead, Target: TargetSpace, Operations: spaceContentReads},
		{Scope: ScopeSpaceContentWrite, Target: TargetSpace, Operations: concat(spaceContentReads, spaceContentWrites)},
		{Scope: ScopeSpaceMetadataRead, Target: TargetSpace, Operations: spaceMetadataReads},
		{Scope: ScopeSpaceMetadataWrite, Target: TargetSpace, Operations: concat(spaceMetadataReads, []string{"updateSpaceById"}),
			Fields: map[string][]string{"updateSpaceById": {"title", "emoji", "icon", "language"}}},
		{Scope: ScopeSpaceGitSync, Target: TargetSpace,
			Operations: []string{"getSpaceById", "getSpaceGitInfo", "importGitRepository", "exportToGitRepository"}},
		{Scope: "page:feedback:read", Target: TargetSpace},
		{Scope: ScopeSiteMetadataRead, Target: TargetSite, Operations: []string{"getSiteById", "getSiteStructure"}},
		{Scope: "site:views:read", Target: TargetSite},
		{Scope: "site:script:inject", Target: TargetSite},
		{Scope: "site:script:cookies", Target: TargetSite},
		{Scope: "site:visitor:auth", Target: TargetSite},
		{Scope: ScopeSiteAdaptiveRead, Target: TargetSite, Operations: siteAdaptiveReads},
		{Scope: ScopeSiteAdaptiveWrite, Target: TargetSite, Operations: concat(siteAdaptiveReads, []string{"updateSiteAdaptiveSchema"})},
		{Scope: ScopeOpenAPIRead, Target: TargetOrganization, Operations: openAPIReads},
		{Scope: ScopeOpenAPIWrite, Target: TargetOrganization, Operations: concat(openAPIReads, []string{
			"createOpenAPISpec", "createOrUpdateOpenAPISpecBySlug", "updateOpenAPISpecBySlug", "deleteOpenAPISpecBySlug"})},
		{Scope: "conversations:ingest", Target: TargetOrganization},
	}
}

// concat joins lists of operation ids into a new one.
func concat(lists ...[]string) []string {
	return slices.Concat(lists...)
}

// ScopeRuleOf returns the row of a scope; ok is false for a scope the
// table does not know.
func ScopeRuleOf(scope string) (ScopeRule, bool) {
	for _, r := range IntegrationScopes() {
		if r.Scope == scope {
			return r, true
		}
	}
	return ScopeRule{}, false
}

// OperationGrant is what the grant's scopes say of one operation.
type OperationGrant struct {
	// Allowed is set when a scope of the grant names the operation.
	Allowed bool
	// Target is what the installation must cover for it.
	Target ScopeTarget
	// Fields are the body fields it may change; nil when a scope allows
	// the operation whole.
	Fields []string
}

// Operation returns what the grant's scopes allow of an operation: the
// union of the rows naming it, where a row without field limits lifts
// them.
func (g *IntegrationGrant) Operation(id string) OperationGrant {
	var out OperationGrant
	whole := false
	for _, r := range IntegrationScopes() {
		if r.Scope != AnyScope && !g.has(r.Scope) || !slices.Contains(r.Operations, id) {
			continue
		}
		out.Allowed, out.Target = true, r.Target
		if f, limited := r.Fields[id]; limited {
			out.Fields = append(out.Fields, f...)
		} else {
			whole = true
		}
	}
	if whole {
		out.Fields = nil
	}
	return out
}

// Sees reports whether any scope of the grant reaches subjects of a
// target: a covered space or site is then visible to the token (an
// operation no scope names answers 403), otherwise it is not there (404).
func (g *IntegrationGrant) Sees(t ScopeTarget) bool {
	for _, s := range g.Scopes {
		if r, ok := ScopeRuleOf(s); ok && r.Target == t && len(r.Operations) > 0 {
			return true
		}
	}
	return false
}

// ScopesAllowing lists the published scopes that allow an operation, for
// the message refusing a token without any of them.
func ScopesAllowing(id string) []string {
	var out []string
	for _, r := range IntegrationScopes() {
		if r.Scope != AnyScope && slices.Contains(r.Operations, id) {
			out = append(out, r.Scope)
		}
	}
	return out
}
