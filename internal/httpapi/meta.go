package httpapi

import "context"

// apiInfo is the body of GET /v1/.
type apiInfo struct {
	Version string `json:"version"`
	Build   string `json:"build"`
}

func (s *Server) apiInformation(ctx context.Context, _ *struct{}) (*body[apiInfo], error) {
	return reply(apiInfo{Version: s.cfg.Version, Build: s.cfg.Build}), nil
}

func (s *Server) currentUser(ctx context.Context, _ *struct{}) (*body[userJSON], error) {
	return reply(s.userOut(userFrom(ctx))), nil
}
