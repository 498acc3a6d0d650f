package service

import (
	"testing"

	"quire/internal/quire"
)

func TestAuditRecordsMemberChangesForAdminsOnly(t *testing.T) {
	t.Parallel()
	b := NewBootstrapped(t)
	ctx := WithActor(t.Context(), b.Admin)
	bob, _, err := b.Svc.CreateUser(ctx, CreateUserInput{Email: "bob@example.com", Name: "Bob", OrgID: b.Org, Role: quire.RoleRead})
	if err != nil {
		t.Fatal(err)
	}
	admin := quire.RoleAdmin
	if _, err := b.Svc.UpdateMemberRole(ctx, b.Org, bob.ID, &admin); err != nil {
		t.Fatal(err)
	}
	// Setting the same role again changes nothing and records nothing.
	if _, err := b.Svc.UpdateMemberRole(ctx, b.Org, bob.ID, &admin); err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.Svc.CreatePersonalToken(t.Context(), bob, "deploys"); err != nil {
		t.Fatal(err)
	}
	l, err := b.Svc.AuditEvents(t.Context(), b.Admin, b.Org, quire.AuditFilter{}, quire.Page{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range l.Items {
		got = append(got, string(e.Action)+" by "+e.ActorID+" on "+e.TargetID)
	}
	want := []string{
		"token.created by " + bob.ID + " on " + l.Items[0].TargetID,
		"member.role_changed by " + b.Admin.ID + " on " + bob.ID,
		"member.added by " + b.Admin.ID + " on " + bob.ID,
	}
	if len(got) != len(want) {
		t.Fatalf("events %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("events %q, want %q", got, want)
		}
	}
	if d := l.Items[1].Details; d["from"] != "read" || d["to"] != "admin" {
		t.Fatalf("role change details %v", d)
	}

	read := quire.RoleRead
	if _, err := b.Svc.UpdateMemberRole(ctx, b.Org, bob.ID, &read); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Svc.AuditEvents(t.Context(), bob, b.Org, quire.AuditFilter{}, quire.Page{}); quire.ErrorCode(err) != quire.EFORBIDDEN {
		t.Fatalf("a reader lists the audit log: %v", err)
	}
	if _, err := b.Svc.AuditEvents(t.Context(), b.Admin, b.Org, quire.AuditFilter{Action: "member.eaten"}, quire.Page{}); quire.ErrorCode(err) != quire.EINVALID {
		t.Fatalf("unknown action: %v", err)
	}
}
