package httpapi

// registerApp declares the web app's routes as browser routes, so that
// the server owns every address it answers. The app authenticates its
// own requests with the session cookie and checks access through the
// service, as the API does. Rows naming a rate limit count against it
// before they run, and a refusal is the app's error page.
func (s *Server) registerApp() {
	if s.cfg.App == nil {
		return
	}
	for _, rt := range s.cfg.App.Routes() {
		h := rt.Handler.ServeHTTP
		if rt.Limit != "" {
			h = s.limited(rt.Limit, h, s.cfg.App.ErrorPage)
		}
		s.browser(BrowserRoute{ID: rt.ID, Method: rt.Method, Path: rt.Path, Limit: rt.Limit}, h)
	}
}
