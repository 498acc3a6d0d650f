package app

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"quire/internal/service"
)

// Pacing of the app's event streams.
const (
	// liveStreamFor caps one stream's life: the browser then reconnects
	// (after liveRetry), and the route's guard checks the session and
	// the person's access again.
	liveStreamFor = 5 * time.Minute
	liveRetry     = 2 * time.Second
	// liveKeepAliveEvery sends a comment line on a quiet stream, so that
	// proxies do not close it.
	liveKeepAliveEvery = 25 * time.Second
)

// inboxEvents streams the person's unread count (see liveStream).
func (a *App) inboxEvents(w http.ResponseWriter, r *http.Request) error {
	return a.liveStream(w, r, "")
}

// spaceEvents streams the unread count and the activity of the space,
// for a page of the space or a change request open in the app.
func (a *App) spaceEvents(w http.ResponseWriter, r *http.Request) error {
	sp, err := spaceFrom(r)
	if err != nil {
		return err
	}
	return a.liveStream(w, r, sp.ID)
}

// liveStream answers server-sent events: "unread" with the person's
// unread count, at once and whenever a notification reaches them, and
// with spaceID "activity" with what someone else did in the space (a
// JSON service.LiveActivity), or "missed" when the stream fell behind.
// Both come from service.Live, which reads what any replica recorded.
// The stream ends when the client goes, the server shuts down, or
// after liveStreamFor.
func (a *App) liveStream(w http.ResponseWriter, r *http.Request, spaceID string) error {
	ctx := r.Context()
	u := userFrom(ctx)
	watch, stop := a.live.Subscribe(ctx, u, spaceID)
	defer stop()
	unread, err := a.svc.UnreadNotifications(ctx, u)
	if err != nil {
		return err
	}
	rc := http.NewResponseController(w)
	// The stream outlives the server's write timeout, up to its own cap.
	_ = rc.SetWriteDeadline(time.Now().Add(liveStreamFor + liveKeepAliveEvery))
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if _, err := fmt.Fprintf(w, "retry: %d\nevent: unread\ndata: %d\n\n", liveRetry.Milliseconds(), unread); err != nil || rc.Flush() != nil {
		return nil
	}
	end := time.NewTimer(liveStreamFor)
	defer end.Stop()
	alive := time.NewTicker(liveKeepAliveEvery)
	defer alive.Stop()
	for {
		var err error
		select {
		case <-ctx.Done():
			return nil
		case <-end.C:
			return nil
		case <-alive.C:
			_, err = fmt.Fprint(w, ": keep-alive\n\n")
		case ev, ok := <-watch.C:
			if !ok {
				return nil
			}
			err = writeLiveEvent(w, ev)
		}
		if err != nil || rc.Flush() != nil {
			return nil
		}
	}
}

// writeLiveEvent writes one event of the stream.
func writeLiveEvent(w http.ResponseWriter, ev service.LiveEvent) error {
	if ev.Missed {
		if _, err := fmt.Fprint(w, "event: missed\ndata: \n\n"); err != nil {
			return err
		}
	}
	if ev.Activity == nil {
		_, err := fmt.Fprintf(w, "event: unread\ndata: %d\n\n", ev.Unread)
		return err
	}
	data, err := json.Marshal(ev.Activity)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "event: activity\ndata: %s\n\n", data)
	return err
}
