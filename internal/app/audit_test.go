package app_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"quire/internal/quire"
)

// TestAuditLogPage checks the audit log page: an admin's role change is
// listed with who did it and the change, the action filter keeps only
// matching events, the nav links the page for admins, and a member who
// is not an admin is refused.
func TestAuditLogPage(t *testing.T) {
	t.Parallel()
	forEachEngine(t, func(t *testing.T, h *harness) {
		rita := h.newUser(t, "rita@acme.test", "Rita Read", quire.RoleRead)
		bob := h.newUser(t, "bob@acme.test", "Bob Builder", quire.RoleRead)
		admin := h.client(t, h.signIn(t, h.Admin))
		reader := h.client(t, h.signIn(t, rita))
		org := "/app/o/" + h.Org
		status, _, _ := h.postForm(t, admin, org+"/members/"+bob.ID+"/role", url.Values{"role": {"edit"}})
		if status != http.StatusSeeOther {
			t.Fatalf("role change: %d", status)
		}

		status, _, body := h.get(t, admin, org+"/audit")
		if status != http.StatusOK {
			t.Fatalf("audit page: %d\n%s", status, body)
		}
		for _, want := range []string{"<td>" + h.Admin.DisplayName + "</td><td>Member role changed</td><td>Bob Builder</td>",
			"read → edit", "<td>Member added</td><td>Rita Read</td>", `href="` + org + `/audit" aria-current="page">Audit log</a>`,
			"Export as JSON lines", "/v1/orgs/" + h.Org + "/audit-events?format=jsonl"} {
			if !strings.Contains(body, want) {
				t.Errorf("audit page lacks %q\n%s", want, body)
			}
		}

		status, _, body = h.get(t, admin, org+"/audit?action=member.role_changed&person="+h.Admin.ID)
		if status != http.StatusOK || !strings.Contains(body, "Member role changed") || strings.Contains(body, "<td>Member added</td>") ||
			!strings.Contains(body, `<option value="member.role_changed" selected>`) {
			t.Fatalf("filtered audit page: %d\n%s", status, body)
		}
		status, _, body = h.get(t, admin, org+"/audit?to=2000-01-01")
		if status != http.StatusOK || !strings.Contains(body, "No event matches.") {
			t.Fatalf("audit page before any event: %d\n%s", status, body)
		}

		status, _, _ = h.get(t, reader, org+"/audit")
		if status != http.StatusForbidden {
			t.Fatalf("reader's audit page: %d", status)
		}
		status, _, body = h.get(t, reader, org+"/members")
		if status != http.StatusOK || strings.Contains(body, org+"/audit") {
			t.Fatalf("a reader's nav links the audit log: %d", status)
		}
	})
}
