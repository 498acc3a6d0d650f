package content

import (
	"context"

	"quire/internal/quire"
)

// insertForTest adds a top-level page without ordering it among its
// siblings, to build large revisions quickly.
func (ed *Edit) insertForTest(ctx context.Context, p *quire.RevisionPage) error {
	p.Slug = Slugify(p.Title)
	root, err := ed.snap.t.Set(ctx, ed.snap.Rev.Slugs, p.Slug, p.ID)
	if err != nil {
		return err
	}
	ed.snap.Rev.Slugs = root
	return ed.putPage(ctx, p)
}
