package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/sync/singleflight"

	"quire/internal/adaptive"
	"quire/internal/quire"
)

// SiteReader serves published sites to their visitors: it finds the site,
// section, site space and page an address names, decides whether the
// visitor may read it (visibility, share links, visitor tokens and
// adaptive conditions) and hands what the page shows (its document,
// navigation and the site around it) to the reader, which renders it.
//
// A visit reads the site's version (quire.SiteVersion) and nothing else
// while the site it resolved at that version is kept: every replica sees
// a write at the next visit, share links revoked and visibility changed
// included.
type SiteReader struct {
	svc *Service
	// owner keeps the sites: their visitor authentication.
	owner *Sites
	conds *adaptive.Conditions
	// sites keeps resolved sites by id, each at the version it was read.
	sites    *lru.Cache[string, *siteSnapshot]
	building singleflight.Group
	// emptySchema is the visitor schema of sites that set none.
	emptySchema *adaptive.Schema
	// specs keeps parsed OpenAPI specification versions by id.
	specs *lru.Cache[string, *specCards]
}

// NewSiteReader returns a reader over the sites owner keeps.
func NewSiteReader(owner *Sites) (*SiteReader, error) {
	sites, err := lru.New[string, *siteSnapshot](siteSnapshotsSize)
	if err != nil {
		return nil, err
	}
	specs, err := lru.New[string, *specCards](parsedSpecsSize)
	if err != nil {
		return nil, err
	}
	return &SiteReader{svc: owner.svc, owner: owner, conds: adaptive.NewConditions(0), sites: sites,
		emptySchema: adaptive.EmptySchema(), specs: specs}, nil
}

// Visitor is what a visitor brings: a share key, a visitor token (a JWT
// signed with the site's visitor key) and unsigned claims.
type Visitor struct {
	ShareKey string
	// ShareKeyInPath tells that the key came in the address
	// (…/~share/<key>/), which the site's links then carry.
	ShareKeyInPath bool
	Token          string
	Unsigned       map[string]any
}

// SiteVisit is a site as one visitor may read it.
type SiteVisit struct {
	Site          *quire.Site
	Structure     *SiteStructure
	Customization *quire.SiteCustomizationSettings
	// Base is the site's address for this visitor, ending with "/": with
	// the share key when the visitor came through a share link.
	Base string
	// ShareLink is the live share link the visitor holds, if any.
	ShareLink *quire.SiteShareLink
	// Claims are the visitor's claims (signed, and unsigned under
	// "unsigned").
	Claims map[string]any
	schema *adaptive.Schema
	// Sections and SiteSpaces are what the visitor may see, in order.
	Sections   []*SiteSectionView
	SiteSpaces []*SiteSpaceView
	// fingerprint names what the visitor sees of the site, for caching.
	fingerprint string
	// snap is the site as resolved at its version.
	snap *siteSnapshot
}

// Indexable tells whether search engines may index the site.
func (v *SiteVisit) Indexable() bool { return v.Site.Visibility == quire.VisibilityPublic }

// Public tells whether every visitor sees the same site, so shared caches
// may keep its pages.
func (v *SiteVisit) Public() bool {
	return (v.Site.Visibility == quire.VisibilityPublic || v.Site.Visibility == quire.VisibilityUnlisted) && len(v.Claims) == 0
}

// SignIn is the cause of the EUNAUTHORIZED a visit to a visitor-auth site
// without a valid token gets: where the site sends such visitors.
type SignIn struct {
	// FallbackURL is the site's sign-in address; "" for none.
	FallbackURL string
}

// Error implements the error interface.
func (e *SignIn) Error() string { return "visitor sign-in required" }

// Visit opens a published site for a visitor: ENOTFOUND for a site that is
// not published (or is private, or a share-link site without a live key),
// EUNAUTHORIZED, caused by a *SignIn, for a visitor-auth site without a
// valid visitor token.
func (r *SiteReader) Visit(ctx context.Context, name string, v Visitor) (*SiteVisit, error) {
	ver, err := r.svc.store.PublishedSiteVersion(ctx, name)
	if err != nil {
		return nil, err
	}
	snap, err := r.siteAt(ctx, ver)
	if err != nil {
		return nil, err
	}
	site := snap.site
	out := &SiteVisit{Site: site, Structure: snap.structure, Customization: snap.custom, schema: snap.schema,
		Base: "/sites/" + name + "/", Claims: map[string]any{}, snap: snap}
	if v.ShareKey != "" {
		l, err := r.shareLink(ctx, snap, v.ShareKey)
		if err != nil {
			return nil, err
		}
		if l != nil {
			out.ShareLink = l
			if v.ShareKeyInPath {
				out.Base += "~share/" + v.ShareKey + "/"
			}
		}
	}
	var (
		signed   map[string]any
		fallback string
	)
	if v.Token != "" || site.Visibility == quire.VisibilityVisitorAuth {
		key, url, err := r.owner.siteVisitorAuth(ctx, site.ID)
		if err != nil {
			return nil, err
		}
		fallback = url
		if v.Token != "" && len(key) > 0 {
			signed, _ = verifyVisitorToken(v.Token, key, r.svc.now())
		}
	}
	switch site.Visibility {
	case quire.VisibilityPublic, quire.VisibilityUnlisted:
	case quire.VisibilityShareLink:
		if out.ShareLink == nil {
			return nil, quire.NotFound("site")
		}
	case quire.VisibilityVisitorAuth:
		if signed == nil {
			return nil, &quire.Error{Code: quire.EUNAUTHORIZED, Err: &SignIn{FallbackURL: fallback},
				Message: "this site is for signed-in visitors: open it from the link your documentation provider gave you"}
		}
	default:
		return nil, quire.NotFound("site")
	}
	for k, val := range signed {
		switch k {
		case "exp", "iat", "nbf", "iss", "aud", "sub", "jti":
			continue
		}
		out.Claims[k] = val
	}
	if len(v.Unsigned) > 0 {
		out.Claims["unsigned"] = v.Unsigned
	}
	if len(out.Claims) == 0 {
		out.Claims = nil
	}
	view := r.view(snap, out)
	out.Sections, out.SiteSpaces, out.fingerprint = view.sections, view.siteSpaces, view.fingerprint
	return out, nil
}

// Holds tells whether a condition holds for the visitor; one that cannot
// be decided does not.
func (v *SiteVisit) holds(conds *adaptive.Conditions, cond string) bool {
	if cond == "" {
		return true
	}
	ok, err := conds.Evaluate(v.schema, cond, v.Claims)
	return err == nil && ok
}

// filter keeps the sections and site spaces whose conditions hold for a
// visitor, and fingerprints what is left: the site's version names
// everything else the visitor's pages show.
func (r *SiteReader) filter(s *siteSnapshot, v *SiteVisit) *siteView {
	out := &siteView{}
	h := sha256.New()
	write := func(parts ...string) {
		for _, p := range parts {
			h.Write([]byte(p))
			h.Write([]byte{0})
		}
	}
	write(s.site.ID, strconv.FormatInt(s.site.Version, 10), v.Base)
	if s.structure.HasSections {
		for _, sec := range s.structure.Sections {
			if !v.holds(r.conds, sec.Section.Condition) {
				continue
			}
			var spaces []*SiteSpaceView
			for _, ss := range sec.SiteSpaces {
				if v.holds(r.conds, ss.SiteSpace.Condition) {
					spaces = append(spaces, ss)
				}
			}
			if len(spaces) == 0 {
				continue
			}
			out.sections = append(out.sections, sec)
			out.siteSpaces = append(out.siteSpaces, spaces...)
			write("section", sec.Section.ID)
		}
	} else {
		for _, ss := range s.structure.SiteSpaces {
			if v.holds(r.conds, ss.SiteSpace.Condition) {
				out.siteSpaces = append(out.siteSpaces, ss)
			}
		}
	}
	for _, ss := range out.siteSpaces {
		write("space", ss.SiteSpace.ID)
	}
	if len(v.Claims) > 0 {
		write("claims")
		h.Write(claimsJSON(v.Claims))
	}
	out.fingerprint = hex.EncodeToString(h.Sum(nil))
	return out
}

// sectionOf returns the visible section holding a site space, nil at the
// root.
func (v *SiteVisit) defaultSection() *SiteSectionView {
	for _, s := range v.Sections {
		if s.Default {
			return s
		}
	}
	if len(v.Sections) > 0 {
		return v.Sections[0]
	}
	return nil
}

// visibleSpaces returns the visible site spaces of a section (nil: the
// root).
func (v *SiteVisit) visibleSpaces(sec *SiteSectionView) []*SiteSpaceView {
	var out []*SiteSpaceView
	for _, ss := range v.SiteSpaces {
		if (sec == nil && ss.Section == nil) || (sec != nil && ss.Section == sec) {
			out = append(out, ss)
		}
	}
	return out
}

// defaultSpace returns the default of a list of visible site spaces, or
// the first when the default is not visible.
func defaultSpace(list []*SiteSpaceView) *SiteSpaceView {
	for _, ss := range list {
		if ss.Default {
			return ss
		}
	}
	if len(list) > 0 {
		return list[0]
	}
	return nil
}

// SpaceURL is the address of a site space's first page for the visitor.
func (v *SiteVisit) SpaceURL(ss *SiteSpaceView) string {
	u := v.Base
	if ss.Section != nil && ss.Section != v.defaultSection() {
		u += ss.Section.Section.Path + "/"
	}
	if ss != defaultSpace(v.visibleSpaces(ss.Section)) {
		u += ss.SiteSpace.Path + "/"
	}
	return u
}

// Locate splits a path below the site into the visible site space it
// names and the page path in it ("" for the first page).
func (v *SiteVisit) Locate(path string) (*SiteSpaceView, string) {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	if len(segs) == 1 && segs[0] == "" {
		segs = nil
	}
	var sec *SiteSectionView
	if v.Structure.HasSections {
		sec = v.defaultSection()
		if len(segs) > 0 {
			for _, s := range v.Sections {
				if s.Section.Path == segs[0] {
					sec, segs = s, segs[1:]
					break
				}
			}
		}
		if sec == nil {
			return nil, ""
		}
	}
	spaces := v.visibleSpaces(sec)
	ss := defaultSpace(spaces)
	if len(segs) > 0 {
		for _, s := range spaces {
			if s.SiteSpace.Path == segs[0] && s != ss {
				ss, segs = s, segs[1:]
				break
			}
		}
	}
	return ss, strings.Join(segs, "/")
}
