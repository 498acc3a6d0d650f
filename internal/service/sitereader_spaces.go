package service

import (
	"context"
	"strings"

	"quire/internal/quire"
)

// spaceAddressSites bounds the published sites looked at for a space's
// address.
const spaceAddressSites = 20

// SpaceAddress answers where a space is read: the address, below the
// server, of its site space in the first published public or unlisted
// site (by title) that shows it to every visitor, followed by path (a
// page path in the space, "" for its first page). ENOTFOUND when no such
// site shows it. It is where a space's published URL leads.
func (r *SiteReader) SpaceAddress(ctx context.Context, spaceID, path string) (string, error) {
	sites, err := r.svc.store.PublishedSitesOf(ctx, quire.PublishedSiteFilter{SpaceID: spaceID,
		Visibilities: []quire.Visibility{quire.VisibilityPublic, quire.VisibilityUnlisted}}, spaceAddressSites)
	if err != nil {
		return "", err
	}
	for _, site := range sites {
		v, err := r.Visit(ctx, site.Name(), Visitor{})
		if quire.IsNotFound(err) {
			continue // unpublished since
		} else if err != nil {
			return "", err
		}
		for _, ss := range v.SiteSpaces {
			if ss.Space.Space.ID == spaceID {
				return v.SpaceURL(ss) + strings.Trim(path, "/"), nil
			}
		}
	}
	return "", quire.NotFound("published space")
}
