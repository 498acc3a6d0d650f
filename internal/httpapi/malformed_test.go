package httpapi

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// openAPIDoc is the part of the OpenAPI document the tests read.
type openAPIDoc struct {
	OpenAPI string                                `json:"openapi"`
	Paths   map[string]map[string]json.RawMessage `json:"paths"`
}

// openAPIOp is one operation of the document.
type openAPIOp struct {
	OperationID string          `json:"operationId"`
	Parameters  []openAPIParam  `json:"parameters"`
	RequestBody json.RawMessage `json:"requestBody"`
	Responses   map[string]any  `json:"responses"`
}

// openAPIParam is a parameter of an operation.
type openAPIParam struct {
	Name     string         `json:"name"`
	In       string         `json:"in"`
	Required bool           `json:"required"`
	Schema   map[string]any `json:"schema"`
}

// operation is an operation with its method and path.
type operation struct {
	openAPIOp
	Method string
	Path   string
}

// fetchOpenAPI reads the served document, without a token.
func fetchOpenAPI(t *testing.T, ts *testServer) (openAPIDoc, []operation) {
	t.Helper()
	r := ts.send(t, "GET", "/v1/openapi.json", "", nil)
	if r.Status != http.StatusOK {
		t.Fatalf("GET /v1/openapi.json: %d: %s", r.Status, r.Body)
	}
	var doc openAPIDoc
	if err := json.Unmarshal(r.Body, &doc); err != nil {
		t.Fatalf("openapi.json is not valid JSON: %v", err)
	}
	var ops []operation
	for path, item := range doc.Paths {
		for method, raw := range item {
			m := strings.ToUpper(method)
			if !slices.Contains([]string{"GET", "POST", "PUT", "PATCH", "DELETE"}, m) {
				continue
			}
			var op openAPIOp
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
			ops = append(ops, operation{openAPIOp: op, Method: m, Path: path})
		}
	}
	slices.SortFunc(ops, func(a, b operation) int { return strings.Compare(a.OperationID, b.OperationID) })
	return doc, ops
}

// bodyCase describes the request body of an operation for the malformed
// input checks: how to reach a subject, a valid body, bodies with a field
// of the wrong type, and how to read the state a rejected write must not
// change.
type bodyCase struct {
	setup     func(t *testing.T, ts *testServer) map[string]string
	valid     map[string]any
	wrongType map[string]map[string]any // field → body
	required  []string                  // fields whose absence is an error
	snapshot  func(t *testing.T, ts *testServer, params map[string]string) string
	// invalid are further bodies the operation refuses with 400, each
	// with a word the message must contain.
	invalid []invalidBody
	// unknown are bodies with members the operation does not declare:
	// ignored by default, refused in strict mode naming the member.
	unknown []invalidBody
	// maxBody is the operation's body limit when it is not the default.
	maxBody int
}

// invalidBody is a body an operation refuses, and what the message names.
type invalidBody struct {
	name    string
	body    any
	mention string
}

// snap reads resources as the admin and concatenates them.
func snap(paths ...func(map[string]string) string) func(*testing.T, *testServer, map[string]string) string {
	return func(t *testing.T, ts *testServer, ps map[string]string) string {
		t.Helper()
		var b strings.Builder
		for _, f := range paths {
			r := ts.send(t, "GET", f(ps), ts.token(cAdmin), nil)
			fmt.Fprintf(&b, "%d %s\n", r.Status, r.Body)
		}
		return b.String()
	}
}

// fixed returns a path builder of a constant path.
func fixed(path string) func(map[string]string) string {
	return func(map[string]string) string { return path }
}

// spacePathOf, collectionPathOf... build paths from parameters.
func spacePathOf(ps map[string]string) string      { return "/v1/spaces/" + ps["spaceId"] }
func collectionPathOf(ps map[string]string) string { return "/v1/collections/" + ps["collectionId"] }
func crPathOf(ps map[string]string) string {
	return spacePathOf(ps) + "/change-requests/" + ps["changeRequestId"]
}

var bodyCases = map[string]bodyCase{
	"updateOrganizationById": {
		valid: map[string]any{"title": "Acme Docs"},
		wrongType: map[string]map[string]any{
			"title":        {"title": 12},
			"sso":          {"sso": "yes"},
			"emailDomains": {"emailDomains": "acme.test"},
			"mergeRules":   {"mergeRules": "none"},
			"defaultRole":  {"defaultRole": 3},
		},
		snapshot: func(t *testing.T, ts *testServer, ps map[string]string) string {
			return snap(fixed(ts.OrgPath("")))(t, ts, ps)
		},
	},
	"createOrganizationTeam": {
		valid:     map[string]any{"title": "Team"},
		wrongType: map[string]map[string]any{"title": {"title": 5}, "members": {"title": "T", "members": "x"}},
		required:  []string{"title"},
		snapshot: func(t *testing.T, ts *testServer, ps map[string]string) string {
			return snap(fixed(ts.OrgPath("/teams")))(t, ts, ps)
		},
	},
	"updateTeamInOrganizationById": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			return pathParams("teamId", ts.newTeam(t, "Team"))
		},
		valid:     map[string]any{"title": "Renamed"},
		wrongType: map[string]map[string]any{"title": {"title": true}},
		required:  []string{"title"},
		snapshot: func(t *testing.T, ts *testServer, ps map[string]string) string {
			return snap(fixed(ts.OrgPath("/teams/"+ps["teamId"])))(t, ts, ps)
		},
	},
	"updateMemberInOrganizationById": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			return pathParams("userId", ts.user(cRead).ID)
		},
		valid:     map[string]any{"role": "edit"},
		wrongType: map[string]map[string]any{"role": {"role": 3}},
		snapshot: func(t *testing.T, ts *testServer, ps map[string]string) string {
			return snap(fixed(ts.OrgPath("/members/"+ps["userId"])))(t, ts, ps)
		},
	},
	"createCollection": {
		valid:     map[string]any{"title": "Collection"},
		wrongType: map[string]map[string]any{"title": {"title": []int{1}}, "parent": {"parent": 1}},
		snapshot: func(t *testing.T, ts *testServer, ps map[string]string) string {
			return snap(fixed(ts.OrgPath("/collections")))(t, ts, ps)
		},
	},
	"updateCollectionById": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			return pathParams("collectionId", ts.newCollection(t, "Collection", ""))
		},
		valid:     map[string]any{"title": "Renamed"},
		wrongType: map[string]map[string]any{"description": {"description": 7}, "defaultLevel": {"defaultLevel": 1}},
		snapshot:  snap(collectionPathOf),
	},
	"moveCollection": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			return pathParams("collectionId", ts.newCollection(t, "Collection", ""))
		},
		valid:     map[string]any{"parent": ""},
		wrongType: map[string]map[string]any{"position": {"position": "first"}, "parent": {"parent": 4}},
		snapshot:  snap(collectionPathOf),
	},
	"transferCollection": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			return pathParams("collectionId", ts.newCollection(t, "Collection", ""))
		},
		valid:     map[string]any{"organization": "nowhere"},
		wrongType: map[string]map[string]any{"organization": {"organization": 1}},
		required:  []string{"organization"},
		snapshot:  snap(collectionPathOf),
	},
	"createSpace": {
		valid:     map[string]any{"title": "Space"},
		wrongType: map[string]map[string]any{"emoji": {"emoji": 1}, "editMode": {"editMode": 2}, "title": {"title": false}},
		snapshot: func(t *testing.T, ts *testServer, ps map[string]string) string {
			return snap(fixed(ts.OrgPath("/spaces")))(t, ts, ps)
		},
	},
	"updateSpaceById": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			return pathParams("spaceId", ts.newSpace(t, "Space"))
		},
		valid: map[string]any{"title": "Renamed"},
		wrongType: map[string]map[string]any{"title": {"title": 1}, "mergeRules": {"mergeRules": "none"},
			"emoji": {"emoji": 5}, "defaultLevel": {"defaultLevel": 1}, "visibility": {"visibility": true}},
		snapshot: snap(spacePathOf),
	},
	"moveSpace": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			return pathParams("spaceId", ts.newSpace(t, "Space"))
		},
		valid:     map[string]any{"parent": ""},
		wrongType: map[string]map[string]any{"position": {"position": 1}, "parent": {"parent": true}},
		snapshot:  snap(spacePathOf),
	},
	"transferSpace": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			return pathParams("spaceId", ts.newSpace(t, "Space"))
		},
		valid:     map[string]any{"organization": "nowhere"},
		wrongType: map[string]map[string]any{"organization": {"organization": false}},
		required:  []string{"organization"},
		snapshot:  snap(spacePathOf),
	},
	"createChangeRequest": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			return pathParams("spaceId", ts.newSpace(t, "Space"))
		},
		valid:     map[string]any{"subject": "Change"},
		wrongType: map[string]map[string]any{"subject": {"subject": 1}, "agentTaskId": {"agentTaskId": 2}},
		snapshot: snap(spacePathOf,
			func(ps map[string]string) string { return spacePathOf(ps) + "/change-requests?status=draft" }),
	},
	"updateChangeRequestById": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			sp := ts.newSpace(t, "Space")
			return pathParams("spaceId", sp, "changeRequestId", str(ts.newChangeRequest(t, sp, "Change"), "id"))
		},
		valid: map[string]any{"subject": "Renamed"},
		wrongType: map[string]map[string]any{"subject": {"subject": false}, "description": {"description": "text"},
			"status": {"status": 1}},
		snapshot: snap(spacePathOf, crPathOf),
	},
	"updateChangeRequestContent": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			sp := ts.newSpace(t, "Space")
			cr := str(ts.newChangeRequest(t, sp, "Change"), "id")
			ts.writeContent(t, sp, cr, insertPage("Existing", "Text."))
			return pathParams("spaceId", sp, "changeRequestId", cr)
		},
		valid: map[string]any{"changes": []any{insertPage("New", "Text.")}},
		wrongType: map[string]map[string]any{
			"changes":   {"changes": "insert"},
			"operation": {"changes": []any{map[string]any{"operation": 1}}},
			"at":        {"changes": []any{insertPage("New", "Text.", "at", "first")}},
			"hidden":    {"changes": []any{insertPage("New", "Text.", "hidden", "yes")}},
			"title":     {"changes": []any{insertPage("New", "Text.", "title", 7)}},
			"document":  {"changes": []any{map[string]any{"operation": "insert_page", "document": "# Title"}}},
			"markdown":  {"changes": []any{map[string]any{"operation": "insert_page", "document": map[string]any{"markdown": 3}}}},
			"files":     {"changes": []any{map[string]any{"operation": "insert_files", "files": "a.png"}}},
			"block":     {"changes": []any{revertPage("x", "block", "k1")}},
		},
		required: []string{"changes"},
		invalid: []invalidBody{
			{"no changes", map[string]any{"changes": []any{}}, "changes"},
			{"51 changes", map[string]any{"changes": manyChanges(51)}, "changes"},
			{"unknown operation", map[string]any{"changes": []any{map[string]any{"operation": "rename_page", "page": "x"}}}, "operation"},
			{"no operation", map[string]any{"changes": []any{map[string]any{"page": "x"}}}, "operation"},
			{"insert_page without document", map[string]any{"changes": []any{map[string]any{"operation": "insert_page", "title": "New"}}}, "changes[0].document"},
			{"update_page without page", map[string]any{"changes": []any{map[string]any{"operation": "update_page", "title": "New"}}}, "changes[0].page"},
			{"delete_page without page", map[string]any{"changes": []any{insertPage("New", "Text."), map[string]any{"operation": "delete_page"}}}, "changes[1].page"},
			{"revert_page without page", map[string]any{"changes": []any{map[string]any{"operation": "revert_page"}}}, "changes[0].page"},
			{"markdown and document", map[string]any{"changes": []any{map[string]any{"operation": "insert_page",
				"document": map[string]any{"markdown": "x", "document": map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{}}}}}}, "changes[0].document"},
			{"not a document", map[string]any{"changes": []any{map[string]any{"operation": "insert_page",
				"document": map[string]any{"document": map[string]any{"object": "block"}}}}}, "changes[0].document"},
			{"empty title", map[string]any{"changes": []any{insertPage("", "Text.")}}, "title"},
			{"blank title", map[string]any{"changes": []any{insertPage("   ", "Text.")}}, "changes[0].title"},
			{"slug not a path segment", map[string]any{"changes": []any{insertPage("New", "Text.", "slug", "Two Words")}}, "changes[0].slug"},
			{"negative at", map[string]any{"changes": []any{insertPage("New", "Text.", "at", -1)}}, "at"},
			{"into an unknown page", map[string]any{"changes": []any{insertPage("New", "Text.", "into", "nosuchpage")}}, "into"},
			{"ref used twice", map[string]any{"changes": []any{insertPage("A", "a", "ref", "r"), insertPage("B", "b", "ref", "r")}}, "changes[1].ref"},
			{"invalid base64", map[string]any{"changes": []any{insertFiles(map[string]any{"name": "a.txt", "base64": "not base64!"})}}, "changes[0].files[0].base64"},
			{"url and base64", map[string]any{"changes": []any{insertFiles(map[string]any{"name": "a.txt", "base64": "aGk=", "url": "https://example.com/a.txt"})}}, "changes[0].files[0]"},
			{"neither url nor base64", map[string]any{"changes": []any{insertFiles(map[string]any{"name": "a.txt"})}}, "changes[0].files[0]"},
			{"file without name", map[string]any{"changes": []any{insertFiles(map[string]any{"base64": "aGk="})}}, "name"},
			{"file name with a slash", map[string]any{"changes": []any{insertFiles(map[string]any{"name": "a/b.txt", "base64": "aGk="})}}, "changes[0].files[0].name"},
			{"no files", map[string]any{"changes": []any{map[string]any{"operation": "insert_files", "files": []any{}}}}, "changes[0].files"},
			{"21 files", map[string]any{"changes": []any{insertFiles(manyFiles(21)...)}}, "files"},
			{"file over 1 MB", map[string]any{"changes": []any{insertFiles(inlineFile("big.bin", make([]byte, 1<<20+1)))}}, "changes[0].files[0].base64"},
			{"url not http", map[string]any{"changes": []any{insertFiles(map[string]any{"name": "a.txt", "url": "ftp://example.com/a.txt"})}}, "changes[0].files[0].url"},
			{"content type with CR LF", map[string]any{"changes": []any{insertFiles(inlineFile("a.txt", []byte("hi"), "contentType", "text/plain\r\nX-Injected: 1"))}}, "changes[0].files[0].contentType"},
			{"content type with LF", map[string]any{"changes": []any{insertFiles(inlineFile("a.txt", []byte("hi"), "contentType", "text/plain\n"))}}, "changes[0].files[0].contentType"},
			{"content type not a media type", map[string]any{"changes": []any{insertFiles(inlineFile("a.txt", []byte("hi"), "contentType", "plain text"))}}, "changes[0].files[0].contentType"},
			{"content type without subtype", map[string]any{"changes": []any{insertFiles(inlineFile("a.txt", []byte("hi"), "contentType", "text"))}}, "changes[0].files[0].contentType"},
			{"content type parameter without value", map[string]any{"changes": []any{insertFiles(inlineFile("a.txt", []byte("hi"), "contentType", "text/plain; charset"))}}, "changes[0].files[0].contentType"},
			{"content type parameter twice", map[string]any{"changes": []any{insertFiles(inlineFile("a.txt", []byte("hi"), "contentType", "text/plain; charset=utf-8; charset=latin1"))}}, "changes[0].files[0].contentType"},
			{"invalid UTF-8 in a title", rawBody("{\"changes\":[{\"operation\":\"insert_page\",\"title\":\"Caf\xe9\",\"document\":{\"markdown\":\"x\"}}]}"), "changes[0].title"},
			{"lone surrogate in markdown", rawBody(`{"changes":[{"operation":"insert_page","title":"T","document":{"markdown":"a\ud800b"}}]}`), "changes[0].document.markdown"},
			{"reversed surrogates in a file name", rawBody(`{"changes":[{"operation":"insert_files","files":[{"name":"\udc00\ud800.txt","base64":"aGk="}]}]}`), "changes[0].files[0].name"},
			{"repeated member in a file", rawBody(`{"changes":[{"operation":"insert_files","files":[{"name":"a.txt","name":"b.txt","base64":"aGk="}]}]}`), "changes[0].files[0].name"},
			{"repeated member in a document", rawBody(`{"changes":[{"operation":"insert_page","title":"T","document":{"document":{"object":"document","data":{},"data":{},"nodes":[]}}}]}`), "changes[0].document.document.data"},
			{"repeated change list", rawBody(`{"changes":[],"changes":[{"operation":"insert_page","title":"T","document":{"markdown":"x"}}]}`), "changes"},
		},
		unknown: []invalidBody{
			{"unknown field in a change", map[string]any{"changes": []any{insertPage("New", "Text.", "bogusField", 1)}}, "changes[0].bogusField"},
			{"unknown field in a file", map[string]any{"changes": []any{insertFiles(inlineFile("a.txt", []byte("hi"), "bogusField", 1))}}, "changes[0].files[0].bogusField"},
		},
		maxBody:  ContentWriteMaxBody,
		snapshot: snap(crPathOf, func(ps map[string]string) string { return crPathOf(ps) + "/content" }),
	},
	"applyTemplateToSpace": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			return pathParams("spaceId", ts.newSpace(t, "Space"))
		},
		valid:     map[string]any{"id": "product-docs"},
		wrongType: map[string]map[string]any{"id": {"id": 1}, "params": {"id": "product-docs", "params": "x"}},
		required:  []string{"id"},
		invalid: []invalidBody{
			{"unknown template", map[string]any{"id": "cookbook"}, "id"},
			{"empty id", map[string]any{"id": ""}, "id"},
		},
		snapshot: snap(spacePathOf, func(ps map[string]string) string { return spacePathOf(ps) + "/content" }),
	},
	"importContent": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			return pathParams("spaceId", ts.newSpace(t, "Space"), "host", importServer(t).URL)
		},
		valid: map[string]any{"url": "https://docs.example/notes.md", "source": "markdown"},
		wrongType: map[string]map[string]any{
			"url":    {"url": 1, "source": "markdown"},
			"source": {"url": "https://docs.example/a.md", "source": true},
		},
		required: []string{"url", "source"},
		invalid: []invalidBody{
			{"unsupported source", map[string]any{"url": "https://docs.example/a.md", "source": "docx"}, "source"},
			{"unknown source", map[string]any{"url": "https://docs.example/a.md", "source": "wiki"}, "source"},
			{"relative url", map[string]any{"url": "a.md", "source": "markdown"}, "url"},
		},
		snapshot: snap(spacePathOf, func(ps map[string]string) string { return spacePathOf(ps) + "/content" }),
	},
	"importContentInChangeRequest": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			space := ts.newSpace(t, "Space")
			return pathParams("spaceId", space, "changeRequestId", str(ts.newChangeRequest(t, space, "Import"), "id"))
		},
		valid: map[string]any{"url": "https://docs.example/notes.md", "source": "markdown"},
		wrongType: map[string]map[string]any{
			"url":    {"url": []any{}, "source": "markdown"},
			"source": {"url": "https://docs.example/a.md", "source": 3},
		},
		required: []string{"url", "source"},
		invalid: []invalidBody{
			{"unsupported source", map[string]any{"url": "https://docs.example/a.md", "source": "notion"}, "source"},
		},
		snapshot: snap(crPathOf, func(ps map[string]string) string { return crPathOf(ps) + "/content" }),
	},
	"importGitRepository": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			return pathParams("spaceId", ts.newSpace(t, "Space"))
		},
		valid: map[string]any{"url": "https://git.example/acme/docs.git", "ref": "refs/heads/main"},
		wrongType: map[string]map[string]any{
			"url":        {"url": 1, "ref": "refs/heads/main"},
			"ref":        {"url": "https://git.example/a.git", "ref": false},
			"standalone": {"url": "https://git.example/a.git", "ref": "refs/heads/main", "standalone": "yes"},
			"gitInfo":    {"url": "https://git.example/a.git", "ref": "refs/heads/main", "gitInfo": "github"},
		},
		required: []string{"url", "ref"},
		invalid: []invalidBody{
			{"bad ref", map[string]any{"url": "https://git.example/a.git", "ref": "main"}, "ref"},
			{"bad scheme", map[string]any{"url": "gopher://git.example/a.git", "ref": "refs/heads/main"}, "url"},
			{"bad provider", map[string]any{"url": "https://git.example/a.git", "ref": "refs/heads/main", "gitInfo": map[string]any{"provider": "svn"}}, "provider"},
			{"bad timestamp", map[string]any{"url": "https://git.example/a.git", "ref": "refs/heads/main", "timestamp": "noon"}, "timestamp"},
		},
		snapshot: snap(spacePathOf, func(ps map[string]string) string { return spacePathOf(ps) + "/git/info" }),
	},
	"exportToGitRepository": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			return pathParams("spaceId", ts.newSpace(t, "Space"))
		},
		valid: map[string]any{"url": "https://git.example/acme/docs.git", "ref": "refs/heads/main", "commitMessage": "Export"},
		wrongType: map[string]map[string]any{
			"commitMessage": {"url": "https://git.example/a.git", "ref": "refs/heads/main", "commitMessage": 5},
			"force":         {"url": "https://git.example/a.git", "ref": "refs/heads/main", "commitMessage": "x", "force": "no"},
		},
		required: []string{"url", "ref", "commitMessage"},
		invalid: []invalidBody{
			{"escaping directory", map[string]any{"url": "https://git.example/a.git", "ref": "refs/heads/main", "commitMessage": "x", "repoProjectDirectory": "a/../../b"}, "repoProjectDirectory"},
		},
		snapshot: snap(spacePathOf, func(ps map[string]string) string { return spacePathOf(ps) + "/git/info" }),
	},
	"postCommentInSpace":              commentPostCase(false),
	"updateCommentInSpace":            commentUpdateCase(false),
	"postCommentReplyInSpace":         replyPostCase(false),
	"updateCommentReplyInSpace":       replyUpdateCase(),
	"postCommentInChangeRequest":      commentPostCase(true),
	"updateCommentInChangeRequest":    commentUpdateCase(true),
	"postCommentReplyInChangeRequest": replyPostCase(true),
	"inviteToSpace": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			return pathParams("spaceId", ts.newSpace(t, "Space"))
		},
		valid:     map[string]any{"role": "read", "users": []string{"nobody"}},
		wrongType: map[string]map[string]any{"users": {"role": "read", "users": "u"}, "role": {"role": 1, "users": []string{"u"}}},
		snapshot: snap(func(ps map[string]string) string { return spacePathOf(ps) + "/permissions/users" },
			func(ps map[string]string) string { return spacePathOf(ps) + "/permissions/teams" }),
	},
	"updateTeamPermissionInSpace": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			sp, team := ts.newSpace(t, "Space"), ts.newTeam(t, "Team")
			ts.grantTeam(t, sp, team, "read")
			return pathParams("spaceId", sp, "teamId", team)
		},
		valid:     map[string]any{"role": "edit"},
		wrongType: map[string]map[string]any{"role": {"role": 2}},
		snapshot:  snap(func(ps map[string]string) string { return spacePathOf(ps) + "/permissions/teams" }),
	},
	"updateUserPermissionInSpace": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			sp := ts.newSpace(t, "Space")
			ts.grantUser(t, sp, ts.user(cRead).ID, "comment")
			return pathParams("spaceId", sp, "userId", ts.user(cRead).ID)
		},
		valid:     map[string]any{"role": "edit"},
		wrongType: map[string]map[string]any{"role": {"role": []string{"edit"}}},
		snapshot:  snap(func(ps map[string]string) string { return spacePathOf(ps) + "/permissions/users" }),
	},
	"createOrganizationSAMLProvider": {
		valid:     map[string]any{"label": "Okta"},
		wrongType: samlWrongTypes(map[string]any{"label": "Okta"}),
		required:  []string{"label"},
		invalid:   samlInvalidBodies(),
		snapshot: func(t *testing.T, ts *testServer, ps map[string]string) string {
			return snap(fixed(ts.OrgPath("/saml")))(t, ts, ps)
		},
	},
	"updateOrganizationSAMLProvider": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			return pathParams("samlProviderId", ts.newSAMLProvider(t, "Okta"))
		},
		valid:     map[string]any{"label": "Renamed"},
		wrongType: samlWrongTypes(nil),
		invalid:   samlInvalidBodies(),
		snapshot: func(t *testing.T, ts *testServer, ps map[string]string) string {
			return snap(fixed(ts.OrgPath("/saml/"+ps["samlProviderId"])))(t, ts, ps)
		},
	},

	// Sites.
	"createSite":                   siteBodyCases()["createSite"],
	"updateSiteById":               siteBodyCases()["updateSiteById"],
	"updateSiteAdaptiveSchema":     siteBodyCases()["updateSiteAdaptiveSchema"],
	"sortSiteStructure":            siteBodyCases()["sortSiteStructure"],
	"createSiteShareLink":          siteBodyCases()["createSiteShareLink"],
	"updateSiteShareLinkById":      siteBodyCases()["updateSiteShareLinkById"],
	"updateSitePublishingAuthById": siteBodyCases()["updateSitePublishingAuthById"],
	"addSectionToSite":             siteBodyCases()["addSectionToSite"],
	"updateSiteSectionById":        siteBodyCases()["updateSiteSectionById"],
	"moveSiteSection":              siteBodyCases()["moveSiteSection"],
	"addSectionGroupToSite":        siteBodyCases()["addSectionGroupToSite"],
	"updateSiteSectionGroupById":   siteBodyCases()["updateSiteSectionGroupById"],
	"addSectionToGroup":            siteBodyCases()["addSectionToGroup"],
	"moveSiteSectionGroup":         siteBodyCases()["moveSiteSectionGroup"],
	"addSpaceToSite":               siteBodyCases()["addSpaceToSite"],
	"updateSiteSpaceById":          siteBodyCases()["updateSiteSpaceById"],
	"moveSiteSpace":                siteBodyCases()["moveSiteSpace"],
	"updateSiteCustomizationById":  siteBodyCases()["updateSiteCustomizationById"],
	"submitChangeRequestReview": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			sp := ts.newSpace(t, "Space")
			return pathParams("spaceId", sp, "changeRequestId", ts.authoredCR(t, sp, "Change"))
		},
		valid: map[string]any{"status": "approved", "comment": md("Looks good.")},
		wrongType: map[string]map[string]any{"status": {"status": true}, "comment": {"status": "approved", "comment": 1},
			"comment.markdown": {"status": "approved", "comment": map[string]any{"markdown": 1}}},
		required: []string{"status"},
		invalid: []invalidBody{
			{"unknown status", map[string]any{"status": "rejected"}, "status"},
			{"empty comment", map[string]any{"status": "approved", "comment": md(" ")}, "comment"},
			{"comment in both forms", map[string]any{"status": "approved", "comment": map[string]any{"markdown": "x",
				"document": map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{}}}}, "comment"},
		},
		snapshot: snap(crPathOf, func(ps map[string]string) string { return crPathOf(ps) + "/reviews" },
			func(ps map[string]string) string { return crPathOf(ps) + "/comments" }),
	},
	"requestReviewersForChangeRequest": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			sp := ts.newSpace(t, "Space")
			return pathParams("spaceId", sp, "changeRequestId", ts.authoredCR(t, sp, "Change"))
		},
		valid: map[string]any{"users": []string{"u"}, "subject": "Subject"},
		wrongType: map[string]map[string]any{"users": {"users": "u"}, "users[0]": {"users": []any{1}},
			"subject": {"users": []string{}, "subject": 1}, "description": {"users": []string{}, "description": "text"}},
		required: []string{"users"},
		invalid: []invalidBody{
			{"too many users", map[string]any{"users": manyEmoji(51)}, "users"},
			{"empty user id", map[string]any{"users": []string{""}}, "users"},
			{"unknown user", map[string]any{"users": []string{"nobody"}}, "users[0]"},
			{"long subject", map[string]any{"users": []string{}, "subject": strings.Repeat("s", 101)}, "subject"},
			{"description not a document", map[string]any{"users": []string{}, "description": map[string]any{"object": "block"}}, "description"},
		},
		snapshot: snap(crPathOf, func(ps map[string]string) string { return crPathOf(ps) + "/requested-reviewers" }),
	},
	"createTranslation": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			return pathParams("spaceId", ts.newSpace(t, "Source"))
		},
		valid: map[string]any{"source": map[string]any{"space": "nosuchspace", "language": "en"}, "language": "fr"},
		wrongType: map[string]map[string]any{
			"source":       {"source": "nosuchspace", "language": "fr"},
			"source.space": {"source": map[string]any{"space": 4, "language": "en"}, "language": "fr"},
			"language":     {"source": map[string]any{"space": "nosuchspace", "language": "en"}, "language": 2},
			"instructions": {"source": map[string]any{"space": "nosuchspace", "language": "en"}, "language": "fr", "instructions": "Be formal."},
		},
		required: []string{"source", "language"},
		invalid: []invalidBody{
			{"unknown language", map[string]any{"source": map[string]any{"space": "nosuchspace", "language": "en"}, "language": "klingon"}, "language"},
			{"unknown source language", map[string]any{"source": map[string]any{"space": "nosuchspace", "language": "xx"}, "language": "fr"}, "source.language"},
			{"no source space", map[string]any{"source": map[string]any{"language": "en"}, "language": "fr"}, "space"},
			{"unknown source space", map[string]any{"source": map[string]any{"space": "nosuchspace", "language": "en"}, "language": "fr"}, "source.space"},
			{"into its own language", map[string]any{"source": map[string]any{"space": "nosuchspace", "language": "en"}, "language": "en"}, "language"},
			{"instructions not a document", map[string]any{"source": map[string]any{"space": "nosuchspace", "language": "en"}, "language": "fr",
				"instructions": map[string]any{"object": "block"}}, "instructions"},
		},
		snapshot: func(t *testing.T, ts *testServer, ps map[string]string) string {
			return snap(fixed(ts.translationsPath("")), fixed(ts.OrgPath("/spaces")))(t, ts, ps)
		},
	},
	"updateTranslation": {
		setup: func(t *testing.T, ts *testServer) map[string]string {
			return pathParams("translationId", str(ts.newTranslation(t, ts.newSpace(t, "Source"), "fr"), "id"))
		},
		valid: map[string]any{"instructions": map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{}}},
		wrongType: map[string]map[string]any{
			"instructions": {"instructions": "Be formal."},
			"language":     {"instructions": nil, "language": 3},
		},
		required: []string{"instructions"},
		invalid: []invalidBody{
			{"unknown language", map[string]any{"instructions": nil, "language": "klingon"}, "language"},
			{"into the source language", map[string]any{"instructions": nil, "language": "en"}, "language"},
			{"instructions not a document", map[string]any{"instructions": map[string]any{"object": "document", "nodes": "x"}}, "instructions"},
		},
		snapshot: func(t *testing.T, ts *testServer, ps map[string]string) string {
			return snap(fixed(ts.translationsPath("/"+ps["translationId"])))(t, ts, ps)
		},
	},
}

// The OpenAPI cases join the table.
func init() {
	for id, c := range openAPIBodyCases() {
		bodyCases[id] = c
	}
}

// manyChanges returns n insert_page changes.
func manyChanges(n int) []any {
	out := make([]any, 0, n)
	for i := range n {
		out = append(out, insertPage(fmt.Sprintf("Page %d", i), "Text."))
	}
	return out
}

// manyFiles returns n small inline files.
func manyFiles(n int) []map[string]any {
	out := make([]map[string]any, 0, n)
	for i := range n {
		out = append(out, inlineFile(fmt.Sprintf("f%d.txt", i), []byte("x")))
	}
	return out
}

// withField returns a copy of body with one more (or a replaced) field.
func withField(body map[string]any, k string, v any) map[string]any {
	out := map[string]any{}
	for key, val := range body {
		out[key] = val
	}
	out[k] = v
	return out
}

// firstStringRE finds the first member with a string value in an encoded
// body.
var firstStringRE = regexp.MustCompile(`"([A-Za-z]+)":"`)

// withBadString returns valid encoded with bad spliced in at the start of
// its first string value, and the name of that member. A body without a
// string gets a "note" member for it.
func withBadString(t *testing.T, valid map[string]any, bad string) (rawBody, string) {
	t.Helper()
	enc, err := json.Marshal(valid)
	if err != nil {
		t.Fatal(err)
	}
	loc := firstStringRE.FindSubmatchIndex(enc)
	if loc == nil {
		if enc, err = json.Marshal(withField(valid, "note", "x")); err != nil {
			t.Fatal(err)
		}
		loc = firstStringRE.FindSubmatchIndex(enc)
	}
	name := string(enc[loc[2]:loc[3]])
	return rawBody(string(enc[:loc[1]]) + bad + string(enc[loc[1]:])), name
}

// withRepeatedMember returns valid encoded with its first member given
// twice, and that member's name.
func withRepeatedMember(t *testing.T, valid map[string]any) (rawBody, string) {
	t.Helper()
	enc, err := json.Marshal(valid)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^\{"([A-Za-z]+)":`).FindSubmatch(enc)
	if m == nil {
		t.Fatalf("no first member in %s", enc)
	}
	return rawBody(`{"` + string(m[1]) + `":null,` + string(enc[1:])), string(m[1])
}

// bodyCheck sends a body that must be answered with want (a message
// naming mention) and leave the state as it was.
type bodyCheck func(name string, want int, body any, mention string)

// forEachBodyCase runs fn on every operation of the served document that
// takes a body, with a check bound to that operation.
func forEachBodyCase(t *testing.T, ts *testServer, fn func(t *testing.T, c bodyCase, check bodyCheck)) {
	t.Helper()
	_, ops := fetchOpenAPI(t, ts)
	withBody := map[string]bool{}
	for _, op := range ops {
		if len(op.RequestBody) == 0 {
			continue
		}
		withBody[op.OperationID] = true
		c, ok := bodyCases[op.OperationID]
		if !ok {
			t.Errorf("%s takes a body but has no case in bodyCases", op.OperationID)
			continue
		}
		t.Run(op.OperationID, func(t *testing.T) {
			var params map[string]string
			if c.setup != nil {
				params = c.setup(t, ts)
			}
			path := fillPath(t, ts, op.Path, params)
			before := c.snapshot(t, ts, params)
			admin := ts.token(cAdmin)
			fn(t, c, func(name string, want int, body any, mention string) {
				t.Helper()
				r := ts.send(t, op.Method, path, admin, body)
				if r.Status != want {
					t.Errorf("%s: status %d, want %d: %s", name, r.Status, want, r.Body)
					return
				}
				msg := checkErrorBody(t, r)
				if mention != "" && !strings.Contains(msg, mention) {
					t.Errorf("%s: message %q does not name %q", name, msg, mention)
				}
				if after := c.snapshot(t, ts, params); after != before {
					t.Errorf("%s: state changed by a rejected request:\nbefore %s\nafter  %s", name, before, after)
				}
			})
		})
	}
	for id := range bodyCases {
		if !withBody[id] {
			t.Errorf("bodyCases names %s, which takes no body in the OpenAPI document", id)
		}
	}
}

// TestMalformedBodies sends broken bodies to every operation that takes
// one and checks the status, the error body and that nothing changed.
func TestMalformedBodies(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		forEachBodyCase(t, ts, func(t *testing.T, c bodyCase, check bodyCheck) {
			check("malformed JSON", 400, rawBody(`{"title":`), "")
			check("not an object", 400, rawBody(`[1,2]`), "")
			check("trailing garbage", 400, rawBody(`{"title":"x"} x`), "")
			check("two values", 400, rawBody(`{"title":"x"} {"title":"y"}`), "")
			b, f := withBadString(t, c.valid, "\xff")
			check("invalid UTF-8 in "+f, 400, b, f)
			b, f = withBadString(t, c.valid, "\xc3")
			check("truncated UTF-8 in "+f, 400, b, f)
			b, f = withBadString(t, c.valid, `\ud800`)
			check("lone high surrogate in "+f, 400, b, f)
			b, f = withBadString(t, c.valid, `\udfff`)
			check("lone low surrogate in "+f, 400, b, f)
			b, f = withRepeatedMember(t, c.valid)
			check("repeated "+f, 400, b, f)
			check("repeated member in a nested object", 400,
				rawBody(`{"zz":{"a":{"b":1,"b":1}}}`), "zz.a.b")
			check("repeated member in an array", 400,
				rawBody(`{"zz":[{"a":1},{"b":1,"b":2}]}`), "zz[1].b")
			for f, b := range c.wrongType {
				check("wrong type of "+f, 400, b, f)
			}
			for _, f := range c.required {
				body := map[string]any{}
				for k, v := range c.valid {
					if k != f {
						body[k] = v
					}
				}
				check("missing "+f, 400, body, f)
			}
			for _, b := range c.invalid {
				check(b.name, 400, b.body, b.mention)
			}
			limit := DefaultMaxBodyBytes
			if c.maxBody > 0 {
				limit = c.maxBody
			}
			big := withField(c.valid, "title", strings.Repeat("a", limit+16))
			check(fmt.Sprintf("body over %d MiB", limit>>20), http.StatusRequestEntityTooLarge, big, "")
		})
	})
}

// TestUndeclaredFields checks both input modes: by default members an
// operation does not declare are ignored; in strict mode they are refused
// naming the member. The OpenAPI document says which.
func TestUndeclaredFields(t *testing.T) {
	t.Parallel()
	t.Run("lenient", func(t *testing.T) {
		t.Parallel()
		forEachEngine(t, func(t *testing.T, ts *testServer) {
			wantAdditionalProperties(t, ts, true)
			admin := ts.token(cAdmin)
			_, ops := fetchOpenAPI(t, ts)
			for _, op := range ops {
				c, ok := bodyCases[op.OperationID]
				if !ok {
					continue
				}
				t.Run(op.OperationID, func(t *testing.T) {
					var params map[string]string
					if c.setup != nil {
						params = c.setup(t, ts)
					}
					path := fillPath(t, ts, op.Path, params)
					bodies := append([]invalidBody{{"unknown field", withField(c.valid, "bogusField", 1), "bogusField"}}, c.unknown...)
					for _, b := range bodies {
						r := ts.send(t, op.Method, path, admin, b.body)
						if r.Status == http.StatusBadRequest && strings.Contains(string(r.Body), "bogusField") {
							t.Errorf("%s: refused: %s", b.name, r.Body)
						}
					}
				})
			}
		})
	})
	t.Run("strict", func(t *testing.T) {
		t.Parallel()
		forEachEngine(t, func(t *testing.T, ts *testServer) {
			wantAdditionalProperties(t, ts, false)
			forEachBodyCase(t, ts, func(t *testing.T, c bodyCase, check bodyCheck) {
				check("unknown field", 400, withField(c.valid, "bogusField", 1), "bogusField")
				for _, b := range c.unknown {
					check(b.name, 400, b.body, b.mention)
				}
				// The other checks of the body stay as they are.
				b, f := withBadString(t, c.valid, "\xff")
				check("invalid UTF-8 in "+f, 400, b, f)
				b, f = withRepeatedMember(t, c.valid)
				check("repeated "+f, 400, b, f)
			})
		}, strictInput)
	})
}

// wantAdditionalProperties checks that the schema of every request body
// in the served document admits undeclared members, or forbids them.
func wantAdditionalProperties(t *testing.T, ts *testServer, admitted bool) {
	t.Helper()
	r := ts.send(t, "GET", "/v1/openapi.json", "", nil)
	var doc struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas map[string]map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(r.Body, &doc); err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	n := 0
	for path, item := range doc.Paths {
		for method, raw := range item {
			var op struct {
				RequestBody struct {
					Content map[string]struct {
						Schema struct {
							Ref string `json:"$ref"`
						} `json:"schema"`
					} `json:"content"`
				} `json:"requestBody"`
			}
			if json.Unmarshal(raw, &op) != nil {
				continue
			}
			ref := op.RequestBody.Content["application/json"].Schema.Ref
			if ref == "" {
				continue
			}
			s := doc.Components.Schemas[strings.TrimPrefix(ref, "#/components/schemas/")]
			if s == nil {
				t.Errorf("%s %s: schema %s not in the document", method, path, ref)
				continue
			}
			n++
			if got := s["additionalProperties"] != false; got != admitted {
				t.Errorf("%s %s: additionalProperties %v in %s", method, path, s["additionalProperties"], ref)
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d request bodies found", n)
	}
}

// TestMalformedQueries sends out-of-range and malformed query parameters to
// every operation that declares them.
func TestMalformedQueries(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		_, ops := fetchOpenAPI(t, ts)
		sp := ts.newSpace(t, "Space")
		f := ts.newContentFixture(t, sp)
		params := pathParams("spaceId", sp, "collectionId", ts.newCollection(t, "Collection", ""),
			"teamId", ts.newTeam(t, "Team"), "userId", ts.user(cAdmin).ID, "inviteId", "nosuchinvite",
			"changeRequestId", f.CR, "revisionId", f.MainRevision, "pageId", f.Page, "pagePath", f.ChildPath,
			"fileId", f.File, "fileName", "logo.png")
		params["samlProviderId"] = ts.newSAMLProvider(t, "IdP")
		for k, v := range ts.newSiteFixture(t).params() {
			params[k] = v
		}
		params["translationId"] = "nosuchtranslation"
		params["specSlug"] = ts.processedSpec(t)
		spec := ts.must(t, 200, "GET", ts.specPath(params["specSlug"]), ts.token(cAdmin), nil)
		params["specId"], params["versionId"] = str(spec, "id"), str(spec, "lastVersion")
		for k, v := range ts.integrationParams(t) {
			params[k] = v
		}
		threads := map[bool]map[string]string{false: ts.commentThread(t, sp, ""), true: ts.commentThread(t, sp, f.CR)}
		admin := ts.token(cAdmin)
		lists := 0
		for _, op := range ops {
			opParams := params
			if strings.Contains(op.Path, "{commentId}") {
				opParams = threads[strings.Contains(op.Path, "/change-requests/")]
			}
			path := fillPath(t, ts, op.Path, opParams)
			// required gives the operation's required query parameters but
			// one a value, so that each bad value is refused for itself.
			required := func(but string) string {
				var q string
				for _, prm := range op.Parameters {
					if prm.In == "query" && prm.Required && prm.Name != but {
						q += prm.Name + "=a&"
					}
				}
				return q
			}
			bad := func(name, query, mention string) {
				t.Helper()
				r := ts.send(t, op.Method, path+"?"+required(strings.SplitN(query, "=", 2)[0])+query, admin, nil)
				if r.Status != http.StatusBadRequest {
					t.Errorf("%s %s: status %d, want 400: %s", op.OperationID, name, r.Status, r.Body)
					return
				}
				wantContains(t, checkErrorBody(t, r), mention)
			}
			for _, prm := range op.Parameters {
				if prm.In != "query" {
					continue
				}
				switch {
				case prm.Name == "limit":
					lists++
					bad("limit=1001", "limit=1001", "limit")
					bad("limit=-1", "limit=-1", "limit")
					bad("limit=abc", "limit=abc", "limit")
					bad("limit=1.5", "limit=1.5", "limit")
					if r := ts.send(t, op.Method, path+"?"+required("")+"limit=1000", admin, nil); r.Status != http.StatusOK {
						t.Errorf("%s limit=1000: status %d: %s", op.OperationID, r.Status, r.Body)
					}
				case prm.Schema["enum"] != nil:
					for _, v := range []string{"up", "x y"} {
						bad(prm.Name+"="+v, prm.Name+"="+url.QueryEscape(v), prm.Name)
					}
				case prm.Schema["type"] == "boolean":
					bad(prm.Name+"=maybe", prm.Name+"=maybe", prm.Name)
				}
				if max, ok := prm.Schema["maxLength"].(float64); ok {
					bad(prm.Name+" too long", prm.Name+"="+strings.Repeat("a", int(max)+1), prm.Name)
				}
			}
		}
		if lists < 10 {
			t.Errorf("only %d operations declare limit", lists)
		}
		// The enumerations the contract names are among them.
		for _, q := range []string{"order=up", "sort=x", "role=x"} {
			r := ts.send(t, "GET", ts.OrgPath("/members?"+q), admin, nil)
			if r.Status != http.StatusBadRequest {
				t.Errorf("members?%s: status %d, want 400", q, r.Status)
				continue
			}
			wantContains(t, checkErrorBody(t, r), strings.Split(q, "=")[0])
		}
		// The content reads name the parameter at fault.
		for _, c := range []struct{ path, query, mention string }{
			{"/content/page/" + f.Page, "format=html", "format"},
			{"/content/path/" + f.ChildPath, "format=html", "format"},
			{"/change-requests/" + f.CR + "/content/page/" + f.Draft, "format=html", "format"},
			{"/revisions/" + f.MainRevision + "/page/" + f.Page, "format=HTML", "format"},
			{"/content/page/" + f.Page, "evaluated=maybe", "evaluated"},
			{"/content", "metadata=maybe", "metadata"},
			{"/content/pages", "metadata=no", "metadata"},
			{"/change-requests/" + f.CR + "/content", "metadata=1x", "metadata"},
			{"/revisions/" + f.MainRevision + "/files", "computed=maybe", "computed"},
			{"/content/files", "limit=1001", "limit"},
			{"/change-requests/" + f.CR + "/content/files", "limit=1001", "limit"},
			{"/revisions/" + f.MainRevision + "/files", "limit=1001", "limit"},
			{"/content/files", "page=garbage!", "page"},
			{"/comments", "status=maybe", "status"},
			{"/comments", "order=up", "order"},
			{"/comments", "format=html", "format"},
			{"/comments", "limit=1001", "limit"},
			{"/comments", "page=garbage", "page"},
			{"/comments", "targetPage=" + strings.Repeat("p", 101), "targetPage"},
			{"/comments/" + threads[false]["commentId"], "format=html", "format"},
			{"/comments/" + threads[false]["commentId"] + "/replies", "format=html", "format"},
			{"/comments/" + threads[false]["commentId"] + "/replies", "limit=1001", "limit"},
			{"/change-requests/" + f.CR + "/comments", "status=maybe", "status"},
			{"/change-requests/" + f.CR + "/comments", "order=up", "order"},
			{"/change-requests/" + f.CR + "/comments", "format=html", "format"},
			{"/change-requests/" + f.CR + "/comments", "limit=1001", "limit"},
			{"/change-requests/" + f.CR + "/comments/" + threads[true]["commentId"] + "/replies", "page=garbage", "page"},
		} {
			path := "/v1/spaces/" + sp + c.path + "?" + c.query
			wantContains(t, ts.mustError(t, http.StatusBadRequest, "GET", path, admin, nil), c.mention)
		}
		wantContains(t, ts.mustError(t, http.StatusBadRequest, "POST", commentsBaseOf(threads[true])+"/"+threads[true]["commentId"]+"/replies?format=html", admin,
			map[string]any{"body": md("Reply")}), "format")
		wantContains(t, ts.mustError(t, http.StatusBadRequest, "POST", crPathOf(params)+"/content?compat=maybe", admin,
			map[string]any{"changes": []any{insertPage("New", "Text.")}}), "compat")
		// An invalid page cursor is a 400 naming the page.
		r := ts.send(t, "GET", ts.OrgPath("/spaces?page=garbage"), admin, nil)
		if r.Status != http.StatusBadRequest {
			t.Errorf("spaces?page=garbage: status %d, want 400: %s", r.Status, r.Body)
		} else {
			wantContains(t, checkErrorBody(t, r), "page")
		}
	})
}

// TestUnknownRoutesAndMethods checks that paths and methods outside the
// route table answer with the API's error body.
func TestUnknownRoutesAndMethods(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, ts *testServer) {
		admin := ts.token(cAdmin)
		for _, c := range []struct {
			method, path string
			status       int
		}{
			{"GET", "/v1/nosuchroute", http.StatusNotFound},
			{"GET", "/v1/orgs/" + ts.Org + "/nosuchroute", http.StatusNotFound},
			{"GET", "/v1/spaces/", http.StatusNotFound},
			{"GET", "/v1/orgs/", http.StatusNotFound},
			{"DELETE", "/v1/orgs", http.StatusMethodNotAllowed},
			{"PUT", "/v1/user", http.StatusMethodNotAllowed},
			{"POST", "/v1/spaces/x", http.StatusMethodNotAllowed},
		} {
			r := ts.send(t, c.method, c.path, admin, nil)
			if r.Status != c.status {
				t.Errorf("%s %s: status %d, want %d: %s", c.method, c.path, r.Status, c.status, r.Body)
				continue
			}
			checkErrorBody(t, r)
		}
	})
}

// TestContentTypePattern checks the declared pattern of a file's content
// type against mime.ParseMediaType: what it admits parses, and it refuses
// line breaks and anything that is not type/subtype with parameters.
func TestContentTypePattern(t *testing.T) {
	t.Parallel()
	f, _ := reflect.TypeOf(fileInput{}).FieldByName("ContentType")
	re, err := regexp.Compile(f.Tag.Get("pattern"))
	if err != nil {
		t.Fatalf("pattern: %v", err)
	}
	for _, c := range []struct {
		ct string
		ok bool
	}{
		{"image/png", true},
		{"text/plain; charset=utf-8", true},
		{"text/plain;charset=UTF-8", true},
		{"text/plain; charset=utf-8; format=flowed", true},
		{`multipart/mixed; boundary="a b;c"`, true},
		{"application/vnd.api+json", true},
		{"image/x-chart", true},
		{"application/x.a~b`c", true},
		{"text/plain\r\nX-Injected: 1", false},
		{"text/plain\n", false},
		{"text/plain; a=\"x\ny\"", false},
		{"text/plain\r", false},
		{"plain text", false},
		{"text", false},
		{"text/", false},
		{"/plain", false},
		{"text/plain;", false},
		{"text/plain; charset", false},
		{"text/plain; charset=", false},
		{"text/plain; charset=utf 8", false},
		{"text/pl ain", false},
		{" text/plain", false},
		{"text/plain; a=\"unterminated", false},
		{"text/plain; a=\"b\\\"c\"", false},
		{"téxt/plain", false},
		{"", false},
	} {
		if got := re.MatchString(c.ct); got != c.ok {
			t.Errorf("%q: pattern admits %v, want %v", c.ct, got, c.ok)
		}
		if _, _, err := mime.ParseMediaType(c.ct); c.ok && err != nil {
			t.Errorf("%q: admitted but mime.ParseMediaType fails: %v", c.ct, err)
		}
	}
}
