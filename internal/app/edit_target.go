package app

import (
	"context"
	"net/http"

	"quire/internal/quire"
	"quire/internal/service"
)

// liveTarget is the {target} of an edit address that writes a live
// space's main content directly.
const liveTarget = "live"

// editTarget is where an edit of a space's content goes: a change
// request, by its number, or the space's main content when it is live.
// Every address that writes content sits under editPath, so the editor,
// the page tree's operations and the uploads all write the same way.
type editTarget struct {
	// number is the change request's number; empty for live.
	number string
}

// live reports whether the target is the space's main content.
func (t editTarget) live() bool { return t.number == "" }

// segment is the target as its addresses write it.
func (t editTarget) segment() string {
	if t.live() {
		return liveTarget
	}
	return t.number
}

// editPath is the base of the target's edit addresses in a space:
// /app/s/{spaceId}/~/edit/{target}.
func (t editTarget) editPath(spaceID string) string {
	return spaceAppPath(spaceID, "edit/"+t.segment())
}

// editTargetFrom reads the {target} of an edit address: a change
// request's number, or "live".
func editTargetFrom(r *http.Request) (editTarget, error) {
	v := r.PathValue("target")
	if v == liveTarget {
		return editTarget{}, nil
	}
	if !isNumber(v) {
		return editTarget{}, quire.NotFound("change request")
	}
	return editTarget{number: v}, nil
}

// writeContent applies changes to the target: as a new revision of the
// change request, or as one merged change of the live space
// (service.WriteLive), whose subject is subject. It answers the change
// request written, nil for a live write, and what each change did.
func (a *App) writeContent(ctx context.Context, sp *quire.Space, t editTarget, subject string, changes []service.ContentChange) (*quire.ChangeRequest, []service.ChangeResult, error) {
	u := userFrom(ctx)
	if t.live() {
		_, results, err := a.svc.WriteLive(ctx, u, sp.ID, subject, changes)
		return nil, results, err
	}
	return a.svc.UpdateChangeRequestContent(ctx, u, sp.ID, t.number, changes)
}
