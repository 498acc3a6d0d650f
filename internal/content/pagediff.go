package content

import (
	"context"

	"quire/internal/quire"
)

// ChangedPages lists the ids of the pages whose object differs between
// from's page map and the snapshot's: added, removed or changed. Shared
// subtrees of the two maps are skipped, so the cost follows the change,
// not the size of the space.
func (s *Snapshot) ChangedPages(ctx context.Context, from *quire.Revision) ([]string, error) {
	var ids []string
	err := s.t.Diff(ctx, from.Pages, s.Rev.Pages, func(k, _, _ string) error {
		ids = append(ids, k)
		return nil
	})
	return ids, err
}
