package service

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"quire/internal/jobs"
	"quire/internal/quire"
)

// TestEditedQuietHourByEmail checks that a person who takes edits by
// email alone is emailed of the edits of their change request at most
// once an hour, as the inbox would tell them.
func TestEditedQuietHourByEmail(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		ctx := t.Context()
		logger := slog.New(slog.DiscardHandler)
		q, err := jobs.New(st.(jobs.Database), jobs.Config{Logger: logger, PollInterval: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		svc := New(st, WithQueue(q), WithLogger(logger), WithNotificationMail(true))
		sent := make(chan NotificationMailJob, 10)
		jobs.Register(q, func(_ context.Context, job NotificationMailJob) error {
			sent <- job
			return nil
		})
		if err := q.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = q.Stop(context.Background()) })
		next := func() NotificationMailJob {
			t.Helper()
			select {
			case j := <-sent:
				return j
			case <-time.After(20 * time.Second):
				t.Fatal("no email was queued")
			}
			return NotificationMailJob{}
		}

		boot, err := svc.Bootstrap(ctx, BootstrapInput{OrgTitle: "Org", Email: "owner@example.com", Name: "Owner"})
		if err != nil {
			t.Fatal(err)
		}
		owner, _ := st.User(ctx, boot.User)
		ada := mailMember(t, st, boot.Organization, "Ada", quire.RoleEdit)
		sp, err := svc.CreateSpace(ctx, owner, boot.Organization, SpaceInput{Title: "Docs"})
		if err != nil {
			t.Fatal(err)
		}
		cr, err := svc.CreateChangeRequest(ctx, ada, sp.Space.ID, "Fix the intro")
		if err != nil {
			t.Fatal(err)
		}
		// Ada turns edits off in her inbox and keeps their email.
		if err := svc.SetNotificationPreferences(ctx, ada, []quire.NotificationPreference{{Kind: quire.NotifyEdited, Email: true}}); err != nil {
			t.Fatal(err)
		}
		edit := func(title string) {
			t.Helper()
			md := "Text"
			ch := ContentChange{Operation: OpInsertPage, Fields: PageFields{Title: &title}, Document: &DocumentInput{Markdown: &md}}
			if _, _, err := svc.UpdateChangeRequestContent(ctx, owner, sp.Space.ID, cr.ID, []ContentChange{ch}); err != nil {
				t.Fatal(err)
			}
		}
		edit("One")
		if j := next(); j.NotifyKind != string(quire.NotifyEdited) || j.Recipient != ada.ID {
			t.Fatalf("first email = %+v, want the edit to Ada", j)
		}
		edit("Two")
		edit("Three")
		// The merge is emailed next: the edits since the first sent none.
		if _, err := svc.MergeChangeRequest(ctx, owner, sp.Space.ID, cr.ID); err != nil {
			t.Fatal(err)
		}
		if j := next(); j.NotifyKind != string(quire.NotifyMerged) {
			t.Fatalf("email after the first edit = %s, want the merge alone", j.NotifyKind)
		}
		if vs, _, err := svc.Notifications(ctx, ada, 0, 10); err != nil || len(vs) != 1 || vs[0].Kind != quire.NotifyMerged {
			t.Fatalf("ada's inbox = %v (%v), want the merge alone", vs, err)
		}
	})
}
