package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strings"

	lru "github.com/hashicorp/golang-lru/v2"

	"quire/internal/adaptive"
	"quire/internal/document"
	"quire/internal/quire"
	"quire/internal/reader"
)

// renderedPagesSize is how many rendered pages a SiteReader keeps.
const renderedPagesSize = 512

// parsedDocumentsSize is how many parsed page documents a SiteReader
// keeps; documents are immutable objects, kept by their object key.
const parsedDocumentsSize = 32

// SiteReader serves published sites to their visitors: it finds the site,
// section, site space and page an address names, decides whether the
// visitor may read it (visibility, share links, visitor tokens and
// adaptive conditions) and renders it with internal/reader.
type SiteReader struct {
	svc    *Service
	render *reader.Renderer
	conds  *adaptive.Conditions
	pages  *lru.Cache[string, []byte]
	// settings keeps parsed customizations and visitor schemas by their
	// stored JSON, so that a visit parses them only when they change.
	settings *lru.Cache[string, any]
	// docs keeps parsed documents by their object key; they are only read.
	docs *lru.Cache[string, *document.Document]
}

// parsedCustomization is a site's customization as read, with its JSON
// for fingerprints.
type parsedCustomization struct {
	settings *quire.SiteCustomizationSettings
	json     []byte
}

// NewSiteReader returns a reader over the service's sites.
func NewSiteReader(svc *Service) (*SiteReader, error) {
	r, err := reader.New()
	if err != nil {
		return nil, err
	}
	pages, err := lru.New[string, []byte](renderedPagesSize)
	if err != nil {
		return nil, err
	}
	settings, err := lru.New[string, any](renderedPagesSize)
	if err != nil {
		return nil, err
	}
	docs, err := lru.New[string, *document.Document](parsedDocumentsSize)
	if err != nil {
		return nil, err
	}
	return &SiteReader{svc: svc, render: r, conds: adaptive.NewConditions(0), pages: pages, settings: settings, docs: docs}, nil
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
	st := r.svc.store
	site, err := st.PublishedSiteByName(ctx, name)
	if err != nil {
		return nil, err
	}
	out := &SiteVisit{Site: site, Base: "/sites/" + name + "/", Claims: map[string]any{}}
	if v.ShareKey != "" {
		l, err := st.SiteShareLinkByKey(ctx, site.ID, v.ShareKey)
		if err == nil && l.Active {
			out.ShareLink = l
			if v.ShareKeyInPath {
				out.Base += "~share/" + v.ShareKey + "/"
			}
		} else if err != nil && !quire.IsNotFound(err) {
			return nil, err
		}
	}
	var (
		signed   map[string]any
		fallback string
	)
	if v.Token != "" || site.Visibility == quire.VisibilityVisitorAuth {
		key, url, err := r.svc.siteVisitorAuth(ctx, site.ID)
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
	tree, err := st.SiteTree(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	out.Structure = buildStructure(site, tree, nil)
	custom, err := r.customization(ctx, site)
	if err != nil {
		return nil, err
	}
	out.Customization = custom.settings
	if out.schema, err = r.schema(ctx, site); err != nil {
		return nil, err
	}
	r.filter(out, custom.json)
	return out, nil
}

// customization reads a site's customization, parsed once per stored
// version.
func (r *SiteReader) customization(ctx context.Context, site *quire.Site) (*parsedCustomization, error) {
	raw, err := r.svc.store.SiteCustomization(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	key := "c\x00" + site.ID + "\x00" + string(raw)
	if hit, ok := r.settings.Get(key); ok {
		return hit.(*parsedCustomization), nil
	}
	c, err := siteCustomization(ctx, r.svc.store, site)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	out := &parsedCustomization{settings: c, json: b}
	r.settings.Add(key, out)
	return out, nil
}

// schema reads a site's visitor schema, parsed once per stored version.
func (r *SiteReader) schema(ctx context.Context, site *quire.Site) (*adaptive.Schema, error) {
	stored, err := r.svc.store.SiteAdaptiveSchema(ctx, site.ID)
	if quire.IsNotFound(err) {
		return adaptive.EmptySchema(), nil
	} else if err != nil {
		return nil, err
	}
	key := "s\x00" + string(stored.JSON)
	if hit, ok := r.settings.Get(key); ok {
		return hit.(*adaptive.Schema), nil
	}
	s, err := adaptive.ParseSchema(stored.JSON)
	if err != nil {
		return nil, err
	}
	r.settings.Add(key, s)
	return s, nil
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

// filter keeps the sections and site spaces whose conditions hold, and
// fingerprints what is left.
func (r *SiteReader) filter(v *SiteVisit, customization []byte) {
	h := sha256.New()
	write := func(parts ...string) {
		for _, p := range parts {
			h.Write([]byte(p))
			h.Write([]byte{0})
		}
	}
	write(v.Site.ID, v.Site.UpdatedAt.String(), v.Site.Title, v.Base)
	h.Write(customization)
	if v.Structure.HasSections {
		for _, sec := range v.Structure.Sections {
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
			v.Sections = append(v.Sections, sec)
			v.SiteSpaces = append(v.SiteSpaces, spaces...)
			write("section", sec.Section.ID, sec.Section.Title, sec.Section.Path, sec.Section.Group)
		}
		for _, g := range v.Structure.Groups {
			write("group", g.Group.ID, g.Group.Title)
		}
	} else {
		for _, ss := range v.Structure.SiteSpaces {
			if v.holds(r.conds, ss.SiteSpace.Condition) {
				v.SiteSpaces = append(v.SiteSpaces, ss)
			}
		}
	}
	for _, ss := range v.SiteSpaces {
		sp := ss.Space.Space
		write("space", ss.SiteSpace.ID, ss.SiteSpace.Path, sp.ID, sp.Title, sp.Revision)
	}
	if len(v.Claims) > 0 {
		keys := make([]string, 0, len(v.Claims))
		for k := range v.Claims {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			b, _ := json.Marshal(v.Claims[k])
			write("claim", k, string(b))
		}
	}
	v.fingerprint = hex.EncodeToString(h.Sum(nil))
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
