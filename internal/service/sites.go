package service

// Sites keeps the sites of organizations: their sections, site spaces,
// customization, adaptive schema, share links, publishing and the keys
// that sign their visitors' tokens.
type Sites struct {
	svc *Service
	// keys seals the private keys of sites, under the key given or else
	// one read from the database.
	keys *sealer
}

// SitesOption configures a Sites.
type SitesOption func(*Sites)

// WithSecretKey sets the server's secret key, which seals the private keys
// of sites in the database, instead of a key kept in the database.
func WithSecretKey(key []byte) SitesOption { return func(s *Sites) { s.keys.key = key } }

// NewSites returns the sites service of svc.
func NewSites(svc *Service, opts ...SitesOption) *Sites {
	s := &Sites{svc: svc, keys: newSealer(siteKeySealName)}
	for _, o := range opts {
		o(s)
	}
	return s
}
