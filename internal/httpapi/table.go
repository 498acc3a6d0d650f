package httpapi

import (
	"log/slog"

	"quire/internal/service"
)

// RouteTable returns what a server declares: the operations of the API
// and the endpoints browsers use directly. It builds a server without a
// store, which is enough to read its table.
func RouteTable() ([]Route, []BrowserRoute) {
	s, _ := newServer(service.New(nil), Config{Logger: slog.New(slog.DiscardHandler)})
	return s.Routes(), s.BrowserRoutes()
}
