package content

import (
	"context"
	"encoding/json"
	"strings"

	"quire/internal/quire"
)

// How a conflict is resolved: the side of the merge whose version is
// kept, or content given in its place.
const (
	TakeOurs   = "ours"
	TakeTheirs = "theirs"
	TakeEdited = "edited"
)

// Resolution settles one conflict of a merge. Take names the side whose
// version wins (TakeOurs, TakeTheirs), or TakeEdited for a block whose
// content is replaced by Blocks: the first takes the conflicting block's
// place (it should carry the block's key, so comments stay anchored),
// the others follow it; no blocks removes the block. Edited content
// only settles block conflicts.
type Resolution struct {
	Take   string
	Blocks []json.RawMessage
}

// ID names a conflict among the conflicts of one merge, for a
// resolution to refer to it: "file/<id>" for a file, otherwise
// "page/<page>/<field>/<block>" (field and block may be empty).
func (c Conflict) ID() string {
	if c.File != "" {
		return "file/" + c.File
	}
	return "page/" + c.Page + "/" + c.Field + "/" + c.Block
}

// MergeResolved is Merge with the conflicts named in res (by Conflict.ID)
// settled as they say. A resolution for a conflict that does not arise is
// ignored; conflicts without a resolution, and those the resolutions
// themselves cause (a page restored under a parent the other side
// deleted), are returned as Merge returns them, with no edit.
func (e *Engine) MergeResolved(ctx context.Context, st Store, base, ours, theirs *quire.Revision, res map[string]Resolution) (*Edit, []Conflict, error) {
	return e.merge(ctx, st, base, ours, theirs, res)
}

// resolution returns the resolution of a page's conflict, if any.
func (m *merger) resolution(page, field, block string) (Resolution, bool) {
	r, ok := m.res[Conflict{Page: page, Field: field, Block: block}.ID()]
	return r, ok && (r.Take == TakeOurs || r.Take == TakeTheirs || (r.Take == TakeEdited && block != ""))
}

// blockResolutions returns the resolutions of the block conflicts of one
// page's document, by block name.
func (m *merger) blockResolutions(page string) map[string]Resolution {
	var out map[string]Resolution
	prefix := Conflict{Page: page, Field: "document"}.ID()
	for id, r := range m.res {
		block, ok := strings.CutPrefix(id, prefix)
		if !ok || block == "" {
			continue
		}
		if out == nil {
			out = map[string]Resolution{}
		}
		out[block] = r
	}
	return out
}

// pick returns the side of a resolution's choice.
func pick[T any](take string, ours, theirs T) T {
	if take == TakeTheirs {
		return theirs
	}
	return ours
}

// resolved returns the resolution of a block conflict, if any.
func (m *docMerge) resolved(name string) (Resolution, bool) {
	r, ok := m.res[name]
	return r, ok && (r.Take == TakeOurs || r.Take == TakeTheirs || r.Take == TakeEdited)
}

// keepResolved keeps a block as its resolution says, given its content
// on each side (nil where a side deleted it).
func (m *docMerge) keepResolved(id string, r Resolution, ours, theirs json.RawMessage) {
	var raw json.RawMessage
	switch r.Take {
	case TakeEdited:
		if len(r.Blocks) > 0 {
			raw = r.Blocks[0]
			m.extra[id] = r.Blocks[1:]
		}
	default:
		raw = pick(r.Take, ours, theirs)
	}
	if raw == nil {
		delete(m.kept, id)
		return
	}
	m.kept[id] = raw
}
