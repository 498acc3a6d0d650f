package service

import (
	"context"

	"quire/internal/quire"
)

// The audit log of an organization records who did what in it: each
// operation listed by quire.AuditActions calls audit once it succeeded,
// on the store it wrote with, so that an operation run in a transaction
// is recorded with it or not at all.

// actorKey marks a context with the user making the request.
type actorKey struct{}

// WithActor marks ctx as the context of a request made by u: the audit
// log names them as who acted in the operations that do not take the
// caller as an argument.
func WithActor(ctx context.Context, u *quire.User) context.Context {
	if u == nil {
		return ctx
	}
	return context.WithValue(ctx, actorKey{}, u.ID)
}

// actorOf returns the id of the user making the request, "" when the
// server acts on its own.
func actorOf(ctx context.Context) string {
	id, _ := ctx.Value(actorKey{}).(string)
	return id
}

// audit records an event of an organization on st, which may be the
// transaction of the operation it records. An event without an actor is
// attributed to the caller the context names.
func audit(ctx context.Context, st quire.Store, e quire.AuditEvent) error {
	if e.ActorID == "" {
		e.ActorID = actorOf(ctx)
	}
	return st.AddAuditEvent(ctx, &e)
}

// auditUserOrgs records an event of a user's own (an API token) in every
// organization the user belongs to: the token reaches each of them.
func auditUserOrgs(ctx context.Context, st quire.Store, userID string, e quire.AuditEvent) error {
	p := quire.Page{Limit: quire.MaxLimit}
	for {
		l, err := st.OrganizationsForUser(ctx, userID, p)
		if err != nil {
			return err
		}
		for _, o := range l.Items {
			e.OrgID = o.ID
			if err := audit(ctx, st, e); err != nil {
				return err
			}
		}
		if l.Next == "" {
			return nil
		}
		p.Cursor = l.Next
	}
}

// auditJoined records that a user joined an organization with a role,
// by their own doing: through an email domain, an invite link or single
// sign-on (via says which).
func auditJoined(ctx context.Context, st quire.Store, orgID, userID string, role quire.Role, via string) error {
	return audit(ctx, st, quire.AuditEvent{OrgID: orgID, ActorID: userID, Action: quire.AuditMemberAdded,
		TargetKind: quire.AuditTargetUser, TargetID: userID, Details: map[string]string{"role": roleWord(role), "via": via}})
}

// roleWord is a role as the audit log's details write it: "guest" for
// none.
func roleWord(r quire.Role) string {
	if r == "" {
		return "guest"
	}
	return string(r)
}

// AuditEvents lists an organization's audit events, newest first, for
// its admins: an organization the caller cannot see is ENOTFOUND, a role
// below admin EFORBIDDEN.
func (s *Service) AuditEvents(ctx context.Context, u *quire.User, orgID string, f quire.AuditFilter, p quire.Page) (*quire.List[*quire.AuditEvent], error) {
	l, _, err := s.Access(ctx, u, ScopeOrganization, orgID)
	if err != nil {
		return nil, err
	}
	if l < ScopeOrganization.Visible() {
		return nil, quire.NotFound("organization")
	}
	if l < quire.LevelAdmin {
		return nil, quire.Errorf(quire.EFORBIDDEN, "the audit log needs the admin role in the organization; you have %s", l)
	}
	if f.Action != "" && !f.Action.Valid() {
		return nil, quire.Invalid("action", "%q is not an audit action", f.Action)
	}
	if !f.Since.IsZero() && !f.Until.IsZero() && !f.Until.After(f.Since) {
		return nil, quire.Invalid("until", "must be after since")
	}
	return s.store.AuditEvents(ctx, orgID, f, p)
}
