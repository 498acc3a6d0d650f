package service

import (
	"context"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/mail"
	"strings"
	"testing"
	"time"

	"quire/internal/jobs"
	"quire/internal/quire"
)

// mailMember creates a user with an email address and makes them a
// member of org with role.
func mailMember(t *testing.T, st quire.Store, org, name string, role quire.Role) *quire.User {
	t.Helper()
	ctx := context.Background()
	u := &quire.User{ID: quire.NewID(), DisplayName: name, Email: strings.ToLower(name) + "@example.com", CreatedAt: time.Now().UTC()}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if err := st.AddMember(ctx, &quire.Member{OrgID: org, User: *u, Role: role, JoinedAt: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	return u
}

// receivedMail is one message the test SMTP server received, parsed.
type receivedMail struct {
	to, subject string
	text, html  string
}

// nextMail waits for the next message the server receives and parses
// its multipart/alternative body.
func nextMail(t *testing.T, srv *testSMTPServer) receivedMail {
	t.Helper()
	var got smtpMessage
	select {
	case got = <-srv.got:
	case <-time.After(20 * time.Second):
		t.Fatal("no email arrived")
	}
	msg, err := mail.ReadMessage(strings.NewReader(got.data))
	if err != nil {
		t.Fatalf("message: %v\n%s", err, got.data)
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		t.Fatal(err)
	}
	out := receivedMail{to: got.to, subject: subject}
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("content type %q (%v), want multipart/alternative", msg.Header.Get("Content-Type"), err)
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err != nil {
			break
		}
		b, err := io.ReadAll(p)
		if err != nil {
			t.Fatal(err)
		}
		pt, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		switch pt {
		case "text/plain":
			out.text = string(b)
		case "text/html":
			out.html = string(b)
		}
	}
	return out
}

// TestNotificationMailOverSMTP sends notification emails through the job
// queue and a real SMTP conversation: the reviewer asked is emailed with
// a subject saying what happened, a link to the change request and text
// and HTML parts; a kind whose email is turned off reaches the inbox but
// sends nothing; and no one is emailed about their own action.
func TestNotificationMailOverSMTP(t *testing.T) {
	t.Parallel()
	EachStore(t, func(t *testing.T, st quire.Store) {
		ctx := t.Context()
		srv := startSMTP(t, nil)
		mailer, err := NewSMTPMailer("smtp://"+srv.addr, "Quire <quire@q.example>")
		if err != nil {
			t.Fatal(err)
		}
		logger := slog.New(slog.DiscardHandler)
		q, err := jobs.New(st.(jobs.Database), jobs.Config{Logger: logger, PollInterval: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		svc := New(st, WithQueue(q), WithLogger(logger), WithNotificationMail(true))
		jobs.Register(q, NewNotificationMail(svc, mailer, "https://q.example/").RunJob)
		if err := q.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = q.Stop(context.Background()) })

		boot, err := svc.Bootstrap(ctx, BootstrapInput{OrgTitle: "Org", Email: "owner@example.com", Name: "Owner"})
		if err != nil {
			t.Fatal(err)
		}
		owner, _ := st.User(ctx, boot.User)
		ada := mailMember(t, st, boot.Organization, "Ada", quire.RoleEdit)
		bob := mailMember(t, st, boot.Organization, "Bob", quire.RoleReview)
		sp, err := svc.CreateSpace(ctx, owner, boot.Organization, SpaceInput{Title: "Docs"})
		if err != nil {
			t.Fatal(err)
		}
		cr, err := svc.CreateChangeRequest(ctx, ada, sp.Space.ID, "Fix the intro")
		if err != nil {
			t.Fatal(err)
		}
		title, md := "Intro", "Hello"
		page := ContentChange{Operation: OpInsertPage, Fields: PageFields{Title: &title}, Document: &DocumentInput{Markdown: &md}}
		if _, _, err := svc.UpdateChangeRequestContent(ctx, ada, sp.Space.ID, cr.ID, []ContentChange{page}); err != nil {
			t.Fatal(err)
		}

		// Ada asks Bob to review: Bob is emailed.
		if _, err := svc.RequestReviewers(ctx, ada, sp.Space.ID, cr.ID, ReviewersRequest{Users: []string{bob.ID}}); err != nil {
			t.Fatal(err)
		}
		m := nextMail(t, srv)
		if m.to != "TO:<bob@example.com>" {
			t.Errorf("recipient = %q", m.to)
		}
		if want := "Ada asked you to review change request #1 “Fix the intro” in Docs"; m.subject != want {
			t.Errorf("subject = %q, want %q", m.subject, want)
		}
		link := "https://q.example/app/s/" + sp.Space.ID + "/~/changes/1"
		if !strings.Contains(m.text, "Open it: "+link+"\r\n") && !strings.Contains(m.text, "Open it: "+link+"\n") {
			t.Errorf("text part lacks the link %s:\n%s", link, m.text)
		}
		if !strings.Contains(m.html, `<a href="`+link+`">`) || !strings.Contains(m.html, "Ada asked you to review") {
			t.Errorf("HTML part lacks the link %s or the summary:\n%s", link, m.html)
		}
		if !strings.Contains(m.text, "https://q.example/app/account#notifications") {
			t.Errorf("text part lacks the link to the preferences:\n%s", m.text)
		}

		// Ada keeps approvals in her inbox but turns their email off.
		if err := svc.SetNotificationPreferences(ctx, ada, []quire.NotificationPreference{{Kind: quire.NotifyApproved, Inbox: true}}); err != nil {
			t.Fatal(err)
		}
		// Her own edit and her own mention of herself email no one.
		more, md2 := "More", "Text"
		ch := ContentChange{Operation: OpInsertPage, Fields: PageFields{Title: &more}, Document: &DocumentInput{Markdown: &md2}}
		if _, _, err := svc.UpdateChangeRequestContent(ctx, ada, sp.Space.ID, cr.ID, []ContentChange{ch}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.RequestReviewers(ctx, ada, sp.Space.ID, cr.ID, ReviewersRequest{Users: []string{ada.ID}}); err != nil && quire.ErrorCode(err) != quire.EINVALID {
			t.Fatal(err)
		}
		ok := "Looks good"
		if _, err := svc.SubmitReview(ctx, Commenter{User: bob, Level: quire.LevelReview}, sp.Space.ID, cr.ID,
			ReviewInput{Status: quire.ReviewApproved, Comment: &DocumentInput{Markdown: &ok}}); err != nil {
			t.Fatal(err)
		}
		vs, _, err := svc.Notifications(ctx, ada, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(vs) != 1 || vs[0].Kind != quire.NotifyApproved {
			t.Fatalf("ada's inbox = %v, want the approval alone", vs)
		}
		// The merge is emailed; it is the next message, so nothing was
		// sent for the approval or for Ada's own actions.
		if _, err := svc.MergeChangeRequest(ctx, owner, sp.Space.ID, cr.ID); err != nil {
			t.Fatal(err)
		}
		m = nextMail(t, srv)
		if m.to != "TO:<ada@example.com>" || !strings.HasPrefix(m.subject, "Owner merged your change request #1") {
			t.Fatalf("next email = %q to %q, want the merge to Ada", m.subject, m.to)
		}
		select {
		case extra := <-srv.got:
			t.Fatalf("unexpected email:\n%s", extra.data)
		case <-time.After(300 * time.Millisecond):
		}
	})
}
