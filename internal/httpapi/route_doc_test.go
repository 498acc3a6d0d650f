package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode"

	"quire/internal/quire"
	"quire/internal/service"
)

// TestRouteDocsCoverRoutes checks that every declared route has a summary
// and a description, in the shape the reference wants, and that the
// reference text names no operation the table does not declare.
func TestRouteDocsCoverRoutes(t *testing.T) {
	t.Parallel()
	routes := declaredRoutes(t)
	declared := map[string]bool{}
	for _, r := range routes {
		declared[r.ID] = true
		if r.Summary == "" || r.Description == "" {
			t.Errorf("%s (%s %s): summary %q, description %q; both are needed", r.ID, r.Method, r.Path, r.Summary, r.Description)
			continue
		}
		if len(r.Summary) > 80 || strings.HasSuffix(r.Summary, ".") || !unicode.IsUpper([]rune(r.Summary)[0]) {
			t.Errorf("%s: summary %q should be a short phrase with a capital and no final period", r.ID, r.Summary)
		}
		if !strings.HasSuffix(r.Description, ".") {
			t.Errorf("%s: description %q should end a sentence", r.ID, r.Description)
		}
		if strings.Contains(r.Description, "Who may call it") {
			t.Errorf("%s: description says who may call it; that sentence comes from the access row", r.ID)
		}
	}
	for id := range routeDocs() {
		if !declared[id] {
			t.Errorf("routeDocs describes %s, which is not a declared route", id)
		}
	}
}

// TestOpenAPIOperationsDescribed reads the served document and checks that
// every operation has a summary and a description, and that the
// description says who may call it as the authorization table of the
// tests (expectedAccess) has it.
func TestOpenAPIOperationsDescribed(t *testing.T) {
	t.Parallel()
	_, mux := newServer(service.New(nil), Config{BaseURL: testBaseURL})
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/openapi.json", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /v1/openapi.json: %d", rec.Code)
	}
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			Summary     string `json:"summary"`
			Description string `json:"description"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	n := 0
	for path, item := range doc.Paths {
		for method, op := range item {
			n++
			name := strings.ToUpper(method) + " " + path
			if op.Summary == "" || op.Description == "" {
				t.Errorf("%s (%s): summary %q, description %q", name, op.OperationID, op.Summary, op.Description)
				continue
			}
			row, ok := expectedAccess[op.OperationID]
			if !ok {
				t.Errorf("%s (%s) has no row in expectedAccess", name, op.OperationID)
				continue
			}
			paras := strings.Split(op.Description, "\n\n")
			who := paras[len(paras)-1]
			if len(paras) < 2 || !strings.HasPrefix(who, "Who may call it: ") {
				t.Errorf("%s: the description does not end with who may call it: %q", op.OperationID, op.Description)
				continue
			}
			for _, want := range whoPhrases(row) {
				if !strings.Contains(who, want) {
					t.Errorf("%s: %q does not say %q", op.OperationID, who, want)
				}
			}
		}
	}
	if n != len(expectedAccess) {
		t.Errorf("the document has %d operations, expectedAccess %d rows", n, len(expectedAccess))
	}
}

// whoPhrases are the phrases a row of the authorization table must put in
// the sentence saying who may call its operation.
func whoPhrases(row accessRow) []string {
	var out []string
	switch {
	case row.public:
		out = append(out, "anyone, without a token")
	case row.scope == service.ScopeNone:
		out = append(out, "any authenticated caller")
	case row.min == quire.LevelGuest:
		out = append(out, "any member of the "+row.scope.String()+", guests included")
	default:
		subject := "the " + row.scope.String()
		if row.scope == service.ScopeSite {
			subject = "the site's organization"
		}
		out = append(out, "the "+row.min.String()+" role or higher", subject)
		if row.min > row.scope.Visible() {
			out = append(out, "lower role get 403")
		}
	}
	if row.absentOK {
		out = append(out, "the answer is 204")
	}
	return out
}

// TestWhoSaysAdmin checks the sentence of an admin-only operation on each
// kind of subject, word for word.
func TestWhoSaysAdmin(t *testing.T) {
	t.Parallel()
	cases := map[string]access{
		"Who may call it: callers with the admin role or higher in the organization; callers who can see the organization with a lower role get 403, the others 404.":                                                                                        onOrg(quire.LevelAdmin),
		"Who may call it: callers with the admin role or higher on the space; callers who can see the space with a lower role get 403, the others 404. When the space does not exist or the caller cannot see it, the answer is 204 and nothing is deleted.": onSpace(quire.LevelAdmin).orAbsent(),
		"Who may call it: callers with the read role or higher on the collection; other callers get 404.":                                                                                                                                                    onCollection(quire.LevelRead),
	}
	for want, a := range cases {
		if got := a.who(); got != want {
			t.Errorf("who() = %q\nwant    %q", got, want)
		}
	}
}
