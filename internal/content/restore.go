package content

import "quire/internal/quire"

// Restore makes the edit's content that of an earlier revision of the
// same space: its pages, tree and files, as they were. The objects are
// already stored, so committing the edit writes the revision alone.
func (ed *Edit) Restore(from *quire.Revision) {
	ed.seal()
	ed.snap.Rev.Pages, ed.snap.Rev.Slugs, ed.snap.Rev.Files = from.Pages, from.Slugs, from.Files
	ed.tails = tails{}
}
