package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"quire/internal/quire"
)

// samlProviderCols are the columns scanSAMLProvider reads.
const samlProviderCols = `p.id, p.org_id, p.label, p.entity_id, p.certificate, p.sso_url,
	p.default_role, p.default_team, p.idp_initiated, p.created_at`

// scanSAMLProvider reads the columns of samlProviderCols.
func scanSAMLProvider(sc scanner) (*quire.SAMLProvider, error) {
	var (
		p          quire.SAMLProvider
		role, team sql.NullString
		created    int64
	)
	if err := sc.Scan(&p.ID, &p.OrgID, &p.Label, &p.EntityID, &p.Certificate, &p.SSOURL,
		&role, &team, &p.IDPInitiated, &created); err != nil {
		return nil, err
	}
	p.DefaultRole, p.DefaultTeam = quire.Role(role.String), team.String
	p.CreatedAt = fromMillis(created)
	return &p, nil
}

// CreateSAMLProvider stores a provider. A default team that is not one of
// the organization's is EINVALID.
func (s *Store) CreateSAMLProvider(ctx context.Context, p *quire.SAMLProvider) error {
	err := s.inTx(ctx, func(tx *Store) error {
		if err := tx.checkTeam(ctx, p.OrgID, p.DefaultTeam); err != nil {
			return err
		}
		_, err := tx.exec(ctx, `INSERT INTO saml_providers
			(id, org_id, label, entity_id, certificate, sso_url, default_role, default_team, idp_initiated, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			p.ID, p.OrgID, p.Label, p.EntityID, p.Certificate, p.SSOURL, nullString(p.DefaultRole),
			nullString(p.DefaultTeam), p.IDPInitiated, millis(p.CreatedAt))
		return tx.conflict("create SAML provider", err, "a SAML provider with this id already exists")
	})
	return wrap("create SAML provider", err)
}

// checkTeam returns EINVALID naming defaultTeam when team is set and is
// not a team of the organization.
func (s *Store) checkTeam(ctx context.Context, orgID, team string) error {
	if team == "" {
		return nil
	}
	var one int
	err := s.queryRow(ctx, "SELECT 1 FROM teams WHERE org_id = ? AND id = ?", orgID, team).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return quire.Invalid("defaultTeam", "no team %s in this organization", team)
	}
	return err
}

// SAMLProvider returns a provider, of the organization when orgID is set.
func (s *Store) SAMLProvider(ctx context.Context, orgID, id string) (*quire.SAMLProvider, error) {
	q, args := "SELECT "+samlProviderCols+" FROM saml_providers p WHERE p.id = ?", []any{id}
	if orgID != "" {
		q, args = q+" AND p.org_id = ?", append(args, orgID)
	}
	p, err := scanSAMLProvider(s.queryRow(ctx, q, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.NotFound("SAML provider")
	}
	return p, wrap("get SAML provider", err)
}

// SAMLProviders lists an organization's providers, oldest first.
func (s *Store) SAMLProviders(ctx context.Context, orgID string, pg quire.Page) (*quire.List[*quire.SAMLProvider], error) {
	const tag = "sp"
	var w filter
	w.add("p.org_id = ?", orgID)
	count, err := s.count(ctx, "SELECT COUNT(*) FROM saml_providers p"+w.where(), w.args...)
	if err != nil {
		return nil, wrap("list SAML providers", err)
	}
	if pg.Cursor != "" {
		var (
			created int64
			id      string
		)
		if err := decodeCursor(pg.Cursor, tag, &created, &id); err != nil {
			return nil, err
		}
		w.seek("p.created_at", "p.id", false, created, id)
	}
	q := "SELECT " + samlProviderCols + " FROM saml_providers p" + w.where() + " ORDER BY p.created_at, p.id"
	items, more, err := fetchPage(ctx, s, q, w.args, pg.Size(), scanSAMLProvider)
	if err != nil {
		return nil, wrap("list SAML providers", err)
	}
	return newList(items, more, count, func(p *quire.SAMLProvider) string {
		return encodeCursor(tag, millis(p.CreatedAt), p.ID)
	}), nil
}

// UpdateSAMLProvider changes a provider. Returns ENOTFOUND.
func (s *Store) UpdateSAMLProvider(ctx context.Context, orgID, id string, upd quire.SAMLProviderUpdate) (*quire.SAMLProvider, error) {
	var out *quire.SAMLProvider
	err := s.inTx(ctx, func(tx *Store) error {
		var set setter
		setIf(&set, "label", upd.Label)
		setIf(&set, "entity_id", upd.EntityID)
		setIf(&set, "certificate", upd.Certificate)
		setIf(&set, "sso_url", upd.SSOURL)
		setIf(&set, "idp_initiated", upd.IDPInitiated)
		if upd.DefaultRole != nil {
			set.add("default_role", nullString(*upd.DefaultRole))
		}
		if upd.DefaultTeam != nil {
			if err := tx.checkTeam(ctx, orgID, *upd.DefaultTeam); err != nil {
				return err
			}
			set.add("default_team", nullString(*upd.DefaultTeam))
		}
		if err := tx.update(ctx, "saml_providers", "org_id = ? AND id = ?", []any{orgID, id}, set, "SAML provider"); err != nil {
			return err
		}
		var err error
		out, err = tx.SAMLProvider(ctx, orgID, id)
		return err
	})
	return out, wrap("update SAML provider", err)
}

// DeleteSAMLProvider deletes a provider; its sign-ins in flight go with it
// and its sessions stay open. It reports whether one existed.
func (s *Store) DeleteSAMLProvider(ctx context.Context, orgID, id string) (bool, error) {
	n, err := s.exec(ctx, "DELETE FROM saml_providers WHERE org_id = ? AND id = ?", orgID, id)
	return n > 0, wrap("delete SAML provider", err)
}

// PutSAMLRequest stores a sign-in in flight and deletes the expired ones.
func (s *Store) PutSAMLRequest(ctx context.Context, r *quire.SAMLRequest, now time.Time) error {
	err := s.putOnce(ctx, "saml_requests", now, func(tx *Store) error {
		_, err := tx.exec(ctx, `INSERT INTO saml_requests (relay_hash, provider_id, request_id, redirect, expires_at)
			VALUES (?, ?, ?, ?, ?)`, r.RelayHash, r.ProviderID, r.RequestID, r.Redirect, millis(r.ExpiresAt))
		if s.dialect.Classify(err) == FailForeignKey {
			return quire.NotFound("SAML provider")
		}
		return err
	})
	return wrap("put SAML request", err)
}

// TakeSAMLRequest deletes and returns a sign-in in flight. Of two callers
// taking the same one, one gets it.
func (s *Store) TakeSAMLRequest(ctx context.Context, providerID string, relayHash []byte, now time.Time) (*quire.SAMLRequest, error) {
	r := quire.SAMLRequest{RelayHash: relayHash, ProviderID: providerID}
	err := s.takeOnce(ctx, "sign-in", now, func(tx *Store) (int64, error) {
		var expires int64
		err := tx.queryRow(ctx, `SELECT request_id, redirect, expires_at FROM saml_requests
			WHERE relay_hash = ? AND provider_id = ?`, relayHash, providerID).Scan(&r.RequestID, &r.Redirect, &expires)
		r.ExpiresAt = fromMillis(expires)
		return expires, err
	}, "DELETE FROM saml_requests WHERE relay_hash = ?", relayHash)
	if quire.IsNotFound(err) {
		return nil, err
	}
	if err != nil {
		return nil, wrap("take SAML request", err)
	}
	return &r, nil
}

// UseSAMLAssertion records an assertion as used; the primary key makes a
// second use ECONFLICT on every replica.
func (s *Store) UseSAMLAssertion(ctx context.Context, providerID, assertionID string, expires, now time.Time) error {
	err := s.inTx(ctx, func(tx *Store) error {
		if _, err := tx.exec(ctx, "DELETE FROM saml_assertions WHERE expires_at <= ?", millis(now)); err != nil {
			return err
		}
		_, err := tx.exec(ctx, "INSERT INTO saml_assertions (provider_id, assertion_id, expires_at) VALUES (?, ?, ?)",
			providerID, assertionID, millis(expires))
		return tx.conflict("use SAML assertion", err, "this assertion was used before")
	})
	return wrap("use SAML assertion", err)
}

// JoinTeam adds a member to a team of the organization with the member
// role; one already in it keeps their role.
func (s *Store) JoinTeam(ctx context.Context, orgID, teamID, userID string) error {
	err := s.inTx(ctx, func(tx *Store) error {
		if _, err := tx.Team(ctx, orgID, teamID); err != nil {
			return err
		}
		_, err := tx.exec(ctx, `INSERT INTO team_members (team_id, user_id, role) VALUES (?, ?, ?)
			ON CONFLICT (team_id, user_id) DO NOTHING`, teamID, userID, quire.TeamMember)
		return err
	})
	return wrap("join team", err)
}

// SSOState reads the organization's SSO requirement and the member's SSO
// flag in one statement.
func (s *Store) SSOState(ctx context.Context, orgID, userID string) (required, member bool, err error) {
	err = s.queryRow(ctx, `SELECT o.sso, m.sso FROM organizations o JOIN members m ON m.org_id = o.id
		WHERE o.id = ? AND m.user_id = ?`, orgID, userID).Scan(&required, &member)
	if errors.Is(err, sql.ErrNoRows) {
		return false, false, quire.NotFound("member")
	}
	return required, member, wrap("SSO state", err)
}
