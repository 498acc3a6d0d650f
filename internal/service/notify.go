package service

import (
	"context"
	"encoding/json"
	"time"

	"quire/internal/document"
	"quire/internal/quire"
)

// editedQuiet is how long after telling a person their change request
// was edited by someone else they are not told again about it: a writer
// saving every few seconds makes one notification, not hundreds.
const editedQuiet = time.Hour

// notice is something that happened which people may be told of: who
// did what, where, and who is told. Every notification and every live
// activity of a space is emitted through notify.
type notice struct {
	actor    *quire.User
	spaceID  string
	crID     string
	comment  string
	activity quire.ActivityKind // "" records none
	// recipients are told of kind; nil tells no one.
	kind       quire.NotificationKind
	recipients []string
}

// notify records n once the operation it tells of has committed: the
// space's activity for the people watching it, then a notification for
// each recipient other than the actor who can still read the space and
// wants it, in their inbox and by email as their preferences say. It
// never fails the operation: errors are logged, and nothing it does
// waits on the mail server (email goes through the job queue).
func (s *Service) notify(ctx context.Context, n notice) {
	ctx = context.WithoutCancel(ctx)
	if n.actor == nil {
		return
	}
	if n.activity != "" {
		a := &quire.Activity{SpaceID: n.spaceID, Kind: n.activity, Actor: n.actor.ID,
			ChangeRequestID: n.crID, CommentID: n.comment, CreatedAt: s.Now()}
		// Records of one space made at the same moment share a commit.
		err := s.batches.do(ctx, s.store, "activity:"+n.spaceID, "", func(ctx context.Context, st quire.Store) (bool, error) {
			return false, st.AddActivity(ctx, a)
		})
		if err != nil {
			s.log.WarnContext(ctx, "space activity not recorded", "space", n.spaceID, "error", err)
		}
	}
	if n.kind == "" || len(n.recipients) == 0 {
		return
	}
	var out []*quire.Notification
	now := s.Now()
	for _, id := range dedupe(n.recipients) {
		if id == "" || id == n.actor.ID {
			continue
		}
		inbox, email, err := s.wants(ctx, id, n, now)
		if err != nil {
			s.log.WarnContext(ctx, "notification not sent", "kind", n.kind, "recipient", id, "error", err)
			continue
		}
		nt := &quire.Notification{Recipient: id, Kind: n.kind, SpaceID: n.spaceID, ChangeRequestID: n.crID,
			CommentID: n.comment, Actor: n.actor.ID, CreatedAt: now}
		if inbox {
			out = append(out, nt)
		}
		mailed := false
		if email && s.notifyMail {
			if _, err := s.enqueue(ctx, notificationMailJob(nt), quire.JobOptions{}); err != nil {
				s.log.WarnContext(ctx, "notification email not queued", "kind", n.kind, "recipient", id, "error", err)
			} else {
				mailed = true
			}
		}
		if n.kind == quire.NotifyEdited && (inbox || mailed) {
			// The quiet hour holds whichever way they were told.
			if err := s.store.MarkNotified(ctx, id, n.kind, n.crID, now); err != nil {
				s.log.WarnContext(ctx, "notification not remembered", "kind", n.kind, "recipient", id, "error", err)
			}
		}
	}
	if len(out) == 0 {
		return
	}
	if err := s.store.AddNotifications(ctx, out); err != nil {
		s.log.WarnContext(ctx, "notifications not recorded", "kind", n.kind, "space", n.spaceID, "error", err)
	}
}

// wants says whether a person is to be told of n in their inbox and by
// email: they must still read the space, not have been told of an edit
// of the same change request lately (by any channel), and want the kind.
func (s *Service) wants(ctx context.Context, userID string, n notice, now time.Time) (inbox, email bool, err error) {
	f, err := s.store.SpaceFacts(ctx, n.spaceID, userID)
	if quire.IsNotFound(err) {
		return false, false, nil
	} else if err != nil {
		return false, false, err
	}
	if f.Level() < quire.LevelRead {
		return false, false, nil
	}
	if n.kind == quire.NotifyEdited {
		seen, err := s.store.NotifiedSince(ctx, userID, n.kind, n.crID, now.Add(-editedQuiet))
		if err != nil || seen {
			return false, false, err
		}
	}
	p, err := s.notificationPreference(ctx, userID, n.kind)
	return p.Inbox, p.Email, err
}

// notifyReviewRequested tells people they were asked to review a change
// request. Callers asking a team pass its members.
func (s *Service) notifyReviewRequested(ctx context.Context, actor *quire.User, cr *quire.ChangeRequest, users []string) {
	s.notify(ctx, notice{actor: actor, spaceID: cr.SpaceID, crID: cr.ID, activity: quire.ActivityReview,
		kind: quire.NotifyReviewRequested, recipients: users})
}

// notifyReview tells a change request's author of a review of it.
func (s *Service) notifyReview(ctx context.Context, actor *quire.User, cr *quire.ChangeRequest, status quire.ReviewStatus) {
	kind := quire.NotifyApproved
	if status == quire.ReviewChangesRequested {
		kind = quire.NotifyChangesRequested
	}
	s.notify(ctx, notice{actor: actor, spaceID: cr.SpaceID, crID: cr.ID, activity: quire.ActivityReview,
		kind: kind, recipients: []string{cr.CreatedBy}})
}

// notifyMerged tells a change request's author it was merged. The
// merge's activity is recorded from its content event (RecordMerges),
// outside the merge's own path.
func (s *Service) notifyMerged(ctx context.Context, actor *quire.User, spaceID, crID, author string) {
	s.notify(ctx, notice{actor: actor, spaceID: spaceID, crID: crID, kind: quire.NotifyMerged, recipients: []string{author}})
}

// notifyEdited tells a change request's author that someone else
// changed its content, at most once an hour.
func (s *Service) notifyEdited(ctx context.Context, actor *quire.User, cr *quire.ChangeRequest) {
	s.notify(ctx, notice{actor: actor, spaceID: cr.SpaceID, crID: cr.ID, activity: quire.ActivityEdit,
		kind: quire.NotifyEdited, recipients: []string{cr.CreatedBy}})
}

// notifyComment tells the people mentioned in a comment or reply, and
// for a reply the thread's author, unless mentioned already.
func (s *Service) notifyComment(ctx context.Context, actor *quire.User, cm *quire.Comment, body json.RawMessage, reply bool) {
	mentioned := mentions(body)
	s.notify(ctx, notice{actor: actor, spaceID: cm.SpaceID, crID: cm.ChangeRequestID, comment: cm.ID,
		activity: quire.ActivityComment, kind: quire.NotifyMentioned, recipients: mentioned})
	if !reply {
		return
	}
	for _, id := range mentioned {
		if id == cm.PostedBy {
			return
		}
	}
	s.notify(ctx, notice{actor: actor, spaceID: cm.SpaceID, crID: cm.ChangeRequestID, comment: cm.ID,
		kind: quire.NotifyReplied, recipients: []string{cm.PostedBy}})
}

// notifyReviewComment tells the people mentioned in a review's comment,
// as a comment's mentions are told; the review's own activity is
// recorded by notifyReview.
func (s *Service) notifyReviewComment(ctx context.Context, actor *quire.User, cm *quire.Comment, body json.RawMessage) {
	s.notify(ctx, notice{actor: actor, spaceID: cm.SpaceID, crID: cm.ChangeRequestID, comment: cm.ID,
		kind: quire.NotifyMentioned, recipients: mentions(body)})
}

// mentions returns the users a rich-text body mentions: its inline
// mention nodes referring to a user.
func mentions(body json.RawMessage) []string {
	doc, err := document.ParseStored(body)
	if err != nil {
		return nil
	}
	var out []string
	var walk func([]document.Node)
	walk = func(nodes []document.Node) {
		for _, n := range nodes {
			if n.Object == document.ObjectInline && n.Type == document.InlineMention {
				if id := userRef(n.Data["ref"]); id != "" {
					out = append(out, id)
				}
			}
			walk(n.Nodes)
			walk(n.Fragments)
		}
	}
	walk(doc.Nodes)
	return dedupe(out)
}

// userRef returns the user a mention's reference names, "" when it names
// something else.
func userRef(v any) string {
	switch r := v.(type) {
	case quire.ContentRef:
		if r.Kind == quire.RefUser {
			return r.User
		}
	case *quire.ContentRef:
		if r != nil && r.Kind == quire.RefUser {
			return r.User
		}
	case map[string]any:
		if k, _ := r["kind"].(string); k == quire.RefUser {
			id, _ := r["user"].(string)
			return id
		}
	}
	return ""
}
