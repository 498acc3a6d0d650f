package app

import (
	"fmt"
	"net/http"
	"time"
)

// Intervals of the inbox's event stream.
const (
	inboxPollEvery      = 2 * time.Second
	inboxKeepAliveEvery = 20 * time.Second
)

// inboxEvents streams the person's unread count as server-sent events
// ("unread", the count), at once and whenever it changes, with a comment
// line as keep-alive. The count is read from the database, so a
// notification recorded by any replica reaches it. The stream ends when
// the client goes or the server shuts down.
func (a *App) inboxEvents(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	u := userFrom(ctx)
	rc := http.NewResponseController(w)
	// The stream outlives the server's write timeout.
	_ = rc.SetWriteDeadline(time.Time{})
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	last, lastSent := -1, time.Now()
	tick := time.NewTicker(inboxPollEvery)
	defer tick.Stop()
	for {
		n, err := a.svc.UnreadNotifications(ctx, u)
		if err != nil {
			return nil
		}
		switch {
		case n != last:
			_, err = fmt.Fprintf(w, "event: unread\ndata: %d\n\n", n)
			last, lastSent = n, time.Now()
		case time.Since(lastSent) >= inboxKeepAliveEvery:
			_, err = fmt.Fprint(w, ": keep-alive\n\n")
			lastSent = time.Now()
		}
		if err != nil || rc.Flush() != nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}
