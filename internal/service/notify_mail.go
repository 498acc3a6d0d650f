package service

import (
	"context"
	"errors"
	"html"
	"strings"
	"time"

	"quire/internal/quire"
)

// NotificationMailJob emails one notification. It carries the
// notification itself, not its id, so that a person who wants email but
// not the inbox is emailed all the same.
type NotificationMailJob struct {
	Recipient     string `json:"recipient"`
	NotifyKind    string `json:"kind"`
	Space         string `json:"space"`
	ChangeRequest string `json:"changeRequest,omitempty"`
	Comment       string `json:"comment,omitempty"`
	Actor         string `json:"actor"`
	CreatedAt     int64  `json:"createdAt"`
}

// Kind names the job's worker.
func (NotificationMailJob) Kind() string { return "notification_mail" }

// notificationMailJob is the job emailing n.
func notificationMailJob(n *quire.Notification) NotificationMailJob {
	return NotificationMailJob{Recipient: n.Recipient, NotifyKind: string(n.Kind), Space: n.SpaceID,
		ChangeRequest: n.ChangeRequestID, Comment: n.CommentID, Actor: n.Actor, CreatedAt: n.CreatedAt.UnixMilli()}
}

// WithNotificationMail says whether notifications are emailed: the
// server has a mailer and runs NotificationMail's jobs.
func WithNotificationMail(on bool) Option { return func(s *Service) { s.notifyMail = on } }

// HTMLMailer sends email with a plain text and an HTML version of its
// body. Mailers without it send the text alone.
type HTMLMailer interface {
	// SendAlternative sends one message to one address.
	SendAlternative(ctx context.Context, to, subject, text, html string) error
}

// NotificationMail emails notifications: the worker of
// NotificationMailJob.
type NotificationMail struct {
	s       *Service
	mailer  Mailer
	baseURL string
}

// NewNotificationMail returns the worker emailing notifications through
// mailer, linking to the app at baseURL.
func NewNotificationMail(s *Service, mailer Mailer, baseURL string) *NotificationMail {
	return &NotificationMail{s: s, mailer: mailer, baseURL: strings.TrimRight(baseURL, "/")}
}

// RunJob emails one notification. Nothing is sent to a person without an
// email address or who can no longer read the space; a failure to send
// fails the job, which the queue tries again.
func (m *NotificationMail) RunJob(ctx context.Context, job NotificationMailJob) error {
	if m.mailer == nil {
		return errors.New("notification mail: no mailer")
	}
	u, err := m.s.store.User(ctx, job.Recipient)
	if quire.IsNotFound(err) {
		return nil
	} else if err != nil {
		return err
	}
	if u.Email == "" {
		return nil
	}
	f, err := m.s.store.SpaceFacts(ctx, job.Space, u.ID)
	if quire.IsNotFound(err) {
		return nil
	} else if err != nil {
		return err
	}
	if f.Level() < quire.LevelRead {
		return nil
	}
	v := m.s.notificationView(ctx, &quire.Notification{Recipient: job.Recipient, Kind: quire.NotificationKind(job.NotifyKind),
		SpaceID: job.Space, ChangeRequestID: job.ChangeRequest, CommentID: job.Comment, Actor: job.Actor,
		CreatedAt: time.UnixMilli(job.CreatedAt).UTC()})
	subject, text, body := notificationMail(v, m.baseURL)
	if hm, ok := m.mailer.(HTMLMailer); ok {
		return hm.SendAlternative(ctx, u.Email, subject, text, body)
	}
	return m.mailer.Send(ctx, u.Email, subject, text)
}

// notificationMail writes the subject and the text and HTML bodies of
// the email of v, linking to what it is about and to the preferences.
func notificationMail(v NotificationView, baseURL string) (subject, text, body string) {
	summary := v.Summary()
	link := baseURL + v.Path()
	prefs := baseURL + "/app/account#notifications"
	subject = summary
	text = summary + ".\n\nOpen it: " + link + "\n\n--\nChoose which emails you get: " + prefs + "\n"
	body = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">` +
		`<p>` + html.EscapeString(summary) + `.</p>` +
		`<p><a href="` + html.EscapeString(link) + `">Open it in Quire</a></p>` +
		`<hr><p style="font-size:small;color:#555"><a href="` + html.EscapeString(prefs) + `">Choose which emails you get</a></p>` +
		`</body></html>`
	return subject, text, body
}
