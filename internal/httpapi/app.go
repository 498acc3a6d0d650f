package httpapi

// registerApp declares the web app's routes as browser routes, so that
// the server owns every address it answers. The app authenticates its
// own requests with the session cookie and checks access through the
// service, as the API does.
func (s *Server) registerApp() {
	if s.cfg.App == nil {
		return
	}
	for _, rt := range s.cfg.App.Routes() {
		s.browser(BrowserRoute{ID: rt.ID, Method: rt.Method, Path: rt.Path}, rt.Handler.ServeHTTP)
	}
}
