package app

import (
	"net/http"
	"strconv"

	"quire/internal/quire"
	"quire/internal/service"
)

// inboxPage is what the inbox shows: a page of the person's
// notifications, newest first, and the address of the next page.
type inboxPage struct {
	Items []inboxItem
	// Older is the address of the next page, "" on the last.
	Older  string
	Unread int
}

// inboxItem is a notification as the inbox lists it.
type inboxItem struct {
	ID      int64
	Summary string
	Path    string
	When    string
	Unread  bool
}

// inbox draws the person's notifications, paged by the id of the last
// one shown (?before=).
func (a *App) inbox(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	u := userFrom(ctx)
	var before int64
	if v := r.URL.Query().Get("before"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return quire.Invalid("before", "must be a notification id")
		}
		before = n
	}
	views, more, err := a.svc.Notifications(ctx, u, before, service.MaxNotificationsPage)
	if err != nil {
		return err
	}
	p := &inboxPage{}
	now := a.now()
	for _, v := range views {
		p.Items = append(p.Items, inboxItem{ID: v.ID, Summary: v.Summary(), Path: v.Path(), When: ago(v.CreatedAt, now),
			Unread: v.Unread()})
	}
	if more && len(views) > 0 {
		p.Older = "/app/inbox?before=" + strconv.FormatInt(views[len(views)-1].ID, 10)
	}
	sh, err := a.shell(r, "")
	if err != nil {
		return err
	}
	p.Unread = sh.Unread
	sh.Title, sh.Section = "Inbox", "inbox"
	return a.render(w, r, http.StatusOK, "inbox", sh, p)
}

// inboxRead marks one notification read and goes back to the inbox.
func (a *App) inboxRead(w http.ResponseWriter, r *http.Request) error {
	id, err := strconv.ParseInt(r.PathValue("notificationId"), 10, 64)
	if err != nil || id <= 0 {
		return quire.Invalid("notificationId", "must be a notification id")
	}
	if err := a.svc.MarkNotificationRead(r.Context(), userFrom(r.Context()), id); err != nil {
		return err
	}
	http.Redirect(w, r, "/app/inbox", http.StatusSeeOther)
	return nil
}

// inboxReadAll marks every notification of the person read.
func (a *App) inboxReadAll(w http.ResponseWriter, r *http.Request) error {
	if err := a.svc.MarkAllNotificationsRead(r.Context(), userFrom(r.Context())); err != nil {
		return err
	}
	http.Redirect(w, r, "/app/inbox", http.StatusSeeOther)
	return nil
}

// accountNotifications saves the notification preferences form: for
// each kind, an "inbox" and an "email" checkbox named
// inbox.KIND and email.KIND; "kinds" lists the kinds the form shows, so
// that an unchecked box turns its kind off.
func (a *App) accountNotifications(w http.ResponseWriter, r *http.Request) error {
	if err := r.ParseForm(); err != nil {
		return quire.Invalid("kinds", "the form could not be read")
	}
	kinds := r.PostForm["kinds"]
	if len(kinds) == 0 {
		return quire.Invalid("kinds", "name at least one notification kind")
	}
	var ps []quire.NotificationPreference
	for _, k := range kinds {
		ps = append(ps, quire.NotificationPreference{Kind: quire.NotificationKind(k),
			Inbox: r.PostForm.Get("inbox."+k) != "", Email: r.PostForm.Get("email."+k) != ""})
	}
	if err := a.svc.SetNotificationPreferences(r.Context(), userFrom(r.Context()), ps); err != nil {
		return err
	}
	http.Redirect(w, r, "/app/account?done=notifications#notifications", http.StatusSeeOther)
	return nil
}
