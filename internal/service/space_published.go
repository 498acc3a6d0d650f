package service

import (
	"context"

	"quire/internal/quire"
)

// SpaceOnPublicSite reports whether a space is published on a site that
// anyone with its address may read (public or unlisted): then the
// space's published address (/docs/{spaceId}/…, see
// SiteReader.SpaceAddress) leads to its pages there.
func (s *Service) SpaceOnPublicSite(ctx context.Context, spaceID string) (bool, error) {
	sites, err := s.store.PublishedSitesOf(ctx, quire.PublishedSiteFilter{SpaceID: spaceID,
		Visibilities: []quire.Visibility{quire.VisibilityPublic, quire.VisibilityUnlisted}}, 1)
	return len(sites) > 0, err
}
