package service

import (
	"context"

	"quire/internal/quire"
)

// ReadSpacePage opens the revision ref names for drawing a document page
// of it, by id, as ReadSpace does by path, without reading the page's
// document or listing the tree: the editor draws what is being written
// (a preview, saved blocks) with the resolvers it gives. A page that is
// not a document page of the revision is ENOTFOUND.
func (s *Service) ReadSpacePage(ctx context.Context, ref ContentRef, pageID string, at SpaceAddresses) (*SpaceRead, error) {
	out, err := s.openSpaceRead(ctx, ref, at)
	if err != nil {
		return nil, err
	}
	n := out.tree.Node(pageID)
	if n == nil || !isDocumentPage(n.Page) {
		return nil, quire.NotFound("page")
	}
	out.Page, out.Path = n.Page, n.Path
	out.Layout = quire.DefaultPageLayout()
	if n.Page.Layout != nil {
		out.Layout = *n.Page.Layout
	}
	return out, nil
}
