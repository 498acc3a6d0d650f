package service

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"

	"quire/internal/adaptive"
	"quire/internal/quire"
)

// siteSnapshotsSize is how many sites a SiteReader keeps resolved.
const siteSnapshotsSize = 256

// maxSnapshotMemo bounds each memo of a snapshot (share keys, views,
// specifications), so that visitors trying keys cannot grow it; what is
// past it is looked up on every visit.
const maxSnapshotMemo = 256

// siteSnapshot is a published site resolved at one version of what it
// shows (quire.SiteVersion): its row, structure, customization and
// visitor schema. It is only read once built, except for its memos,
// which hold what was looked up at that same version: the version moves
// with every write to share links and specifications, so a memo never
// outlives the write that would change it.
type siteSnapshot struct {
	site      *quire.Site
	structure *SiteStructure
	custom    *quire.SiteCustomizationSettings
	schema    *adaptive.Schema

	// shareKeys holds the share keys looked up: the live link, or nil
	// for a key of no live link.
	shareKeys memo[*quire.SiteShareLink]
	// views holds what visitors without claims see, by their base.
	views memo[*siteView]
	// specs holds the organization's OpenAPI specifications looked up, by
	// slug; nil for a slug of none.
	specs memo[*quire.OpenAPISpec]
}

// memo remembers answers by key, up to maxSnapshotMemo of them.
type memo[V any] struct {
	mu sync.Mutex
	m  map[string]V
}

// get returns the answer kept for key, else read's, which it keeps when
// there is room; an error is not kept.
func (m *memo[V]) get(key string, read func() (V, error)) (V, error) {
	m.mu.Lock()
	v, seen := m.m[key]
	m.mu.Unlock()
	if seen {
		return v, nil
	}
	v, err := read()
	if err != nil {
		return v, err
	}
	m.mu.Lock()
	if m.m == nil {
		m.m = map[string]V{}
	}
	if len(m.m) < maxSnapshotMemo {
		m.m[key] = v
	}
	m.mu.Unlock()
	return v, nil
}

// siteView is what of a site's structure a visitor sees.
type siteView struct {
	sections    []*SiteSectionView
	siteSpaces  []*SiteSpaceView
	fingerprint string
}

// siteAt returns the site named by a version read just now: the one
// kept when its version is the same, else the site read again. Concurrent
// visits of a new version read it once.
func (r *SiteReader) siteAt(ctx context.Context, ver quire.SiteVersion) (*siteSnapshot, error) {
	if s, ok := r.sites.Get(ver.ID); ok && s.site.Version == ver.Version {
		return s, nil
	}
	key := ver.ID + "\x00" + strconv.FormatInt(ver.Version, 10)
	v, err, _ := r.building.Do(key, func() (any, error) {
		// Visitors that asked together share the read; one leaving does
		// not cancel it for the others.
		s, err := r.readSite(context.WithoutCancel(ctx), ver.ID)
		if err != nil {
			return nil, err
		}
		r.sites.Add(ver.ID, s)
		return s, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*siteSnapshot), nil
}

// readSite reads a published site. Everything is read after the row
// that gives the snapshot its version, so it is at least that recent: a
// write between the reads moves the version again, and the next visit
// reads the site anew.
func (r *SiteReader) readSite(ctx context.Context, id string) (*siteSnapshot, error) {
	st := r.svc.store
	site, err := st.Site(ctx, id)
	if err != nil {
		return nil, err
	}
	if !site.Published {
		return nil, quire.NotFound("site")
	}
	tree, err := st.SiteTree(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	custom, err := siteCustomization(ctx, st, site)
	if err != nil {
		return nil, err
	}
	s := &siteSnapshot{site: site, structure: buildStructure(site, tree, nil), custom: custom}
	stored, err := st.SiteAdaptiveSchema(ctx, site.ID)
	switch {
	case quire.IsNotFound(err):
		s.schema = r.emptySchema
	case err != nil:
		return nil, err
	default:
		if s.schema, err = adaptive.ParseSchema(stored.JSON); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// shareLink returns the live share link of the site holding key, nil when
// there is none.
func (r *SiteReader) shareLink(ctx context.Context, s *siteSnapshot, key string) (*quire.SiteShareLink, error) {
	return s.shareKeys.get(key, func() (*quire.SiteShareLink, error) {
		l, err := r.svc.store.SiteShareLinkByKey(ctx, s.site.ID, key)
		if quire.IsNotFound(err) || (err == nil && !l.Active) {
			return nil, nil
		}
		return l, err
	})
}

// view returns what a visitor sees of the site: for visitors without
// claims, once per base.
func (r *SiteReader) view(s *siteSnapshot, v *SiteVisit) *siteView {
	if len(v.Claims) > 0 {
		return r.filter(s, v)
	}
	view, _ := s.views.get(v.Base, func() (*siteView, error) { return r.filter(s, v), nil })
	return view
}

// claimsJSON writes claims for a fingerprint, in a stable order.
func claimsJSON(claims map[string]any) []byte {
	b, _ := json.Marshal(claims) // maps marshal with sorted keys
	return b
}
