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

// maxSnapshotShareKeys bounds each memo of a snapshot (share keys,
// views, specifications), so that visitors trying keys cannot grow it;
// what is past it is looked up on every visit.
const maxSnapshotShareKeys = 256

// siteSnapshot is a published site resolved at one version of what it
// shows (quire.SiteVersion): its row, structure, customization and
// visitor schema. It is only read once built, except for the memos
// under mu, which hold what was looked up at that same version: the
// version moves with every write to share links, so a memo never
// outlives the write that would change it.
type siteSnapshot struct {
	site      *quire.Site
	structure *SiteStructure
	custom    *quire.SiteCustomizationSettings
	schema    *adaptive.Schema

	mu sync.Mutex
	// shareKeys holds the share keys looked up: the live link, or nil
	// for a key of no live link.
	shareKeys map[string]*quire.SiteShareLink
	// views holds what visitors without claims see, by their base.
	views map[string]*siteView
	// specs holds the organization's OpenAPI specifications looked up, by
	// slug; nil for a slug of none.
	specs map[string]*quire.OpenAPISpec
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
	s := &siteSnapshot{site: site, structure: buildStructure(site, tree, nil), custom: custom,
		shareKeys: map[string]*quire.SiteShareLink{}, views: map[string]*siteView{},
		specs: map[string]*quire.OpenAPISpec{}}
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
	s.mu.Lock()
	l, seen := s.shareKeys[key]
	s.mu.Unlock()
	if seen {
		return l, nil
	}
	l, err := r.svc.store.SiteShareLinkByKey(ctx, s.site.ID, key)
	if quire.IsNotFound(err) || (err == nil && !l.Active) {
		l = nil
	} else if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if len(s.shareKeys) < maxSnapshotShareKeys {
		s.shareKeys[key] = l
	}
	s.mu.Unlock()
	return l, nil
}

// view returns what a visitor sees of the site: for visitors without
// claims, once per base.
func (r *SiteReader) view(s *siteSnapshot, v *SiteVisit) *siteView {
	if len(v.Claims) > 0 {
		return r.filter(s, v)
	}
	s.mu.Lock()
	view := s.views[v.Base]
	s.mu.Unlock()
	if view != nil {
		return view
	}
	view = r.filter(s, v)
	s.mu.Lock()
	if len(s.views) < maxSnapshotShareKeys {
		s.views[v.Base] = view
	}
	s.mu.Unlock()
	return view
}

// claimsJSON writes claims for a fingerprint, in a stable order.
func claimsJSON(claims map[string]any) []byte {
	b, _ := json.Marshal(claims) // maps marshal with sorted keys
	return b
}
