package service

import (
	"context"

	"quire/internal/quire"
)

// dropGrantsOutside removes the grants whose holder does not belong to an
// organization: grants to its teams and to its members (guests included)
// stay, any other goes. Teams belong to one organization, and a user who
// is not a member could otherwise gain access by joining later, so a
// transfer calls it with the destination to keep nothing granted in the
// old organization.
func dropGrantsOutside(ctx context.Context, st quire.Store, orgID string, grants []quire.Grant) error {
	belongs := map[quire.Principal]map[string]bool{quire.PrincipalTeam: {}, quire.PrincipalUser: {}}
	for _, g := range grants {
		known, ok := belongs[g.PrincipalKind]
		if !ok {
			continue
		}
		in, seen := known[g.PrincipalID]
		if !seen {
			var err error
			if g.PrincipalKind == quire.PrincipalTeam {
				_, err = st.Team(ctx, orgID, g.PrincipalID)
			} else {
				_, err = st.Member(ctx, orgID, g.PrincipalID)
			}
			if err != nil && !quire.IsNotFound(err) {
				return err
			}
			in = err == nil
			known[g.PrincipalID] = in
		}
		if !in {
			if _, err := st.RemoveGrant(ctx, g); err != nil {
				return err
			}
		}
	}
	return nil
}
