package app

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"quire/internal/quire"
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
// Each activity carries its id, so that a browser reconnecting (with
// Last-Event-ID) first gets what it missed meanwhile. The stream ends
// when the client goes, the server shuts down, or after liveStreamFor.
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
	if _, err := fmt.Fprintf(w, "retry: %d\nevent: unread\ndata: %d\n\n", liveRetry.Milliseconds(), unread); err != nil {
		return nil
	}
	// A browser reconnecting says the last activity it had: what others
	// did since comes first, then what the watch brings after it.
	var last int64
	if after, err := strconv.ParseInt(r.Header.Get("Last-Event-ID"), 10, 64); err == nil && after > 0 && spaceID != "" {
		missed, err := a.replayActivity(ctx, w, u, spaceID, after, &last)
		if err != nil {
			return nil
		}
		if missed {
			err = writeLiveEvent(w, service.LiveEvent{Missed: true, Unread: unread})
		}
		if err != nil {
			return nil
		}
	}
	if rc.Flush() != nil {
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
			if ev.Activity != nil && ev.Activity.ID <= last && !ev.Missed {
				continue // replayed already
			}
			err = writeLiveEvent(w, ev)
		}
		if err != nil || rc.Flush() != nil {
			return nil
		}
	}
}

// replayActivity writes what others did in the space after activity id
// after, moving last to the newest written; missed says there was more.
func (a *App) replayActivity(ctx context.Context, w http.ResponseWriter, u *quire.User, spaceID string, after int64, last *int64) (missed bool, err error) {
	acts, missed, err := a.live.Since(ctx, u, spaceID, after)
	if err != nil {
		return false, err
	}
	for _, act := range acts {
		if err := writeLiveEvent(w, service.LiveEvent{Activity: act}); err != nil {
			return false, err
		}
		*last = act.ID
	}
	return missed, nil
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
	_, err = fmt.Fprintf(w, "id: %d\nevent: activity\ndata: %s\n\n", ev.Activity.ID, data)
	return err
}
