package app

import "quire/internal/quire"

// RouteRow is what a test may read of a row of the route table: its id,
// method, path and the access it needs.
type RouteRow struct {
	ID, Method, Path string
	// Public and SignedIn tell a public route and one any signed-in
	// person may use; otherwise Scope ("organization", "space",
	// "collection") and Level are the subject and the least level on it.
	Public, SignedIn bool
	Scope            string
	Level            quire.Level
}

// RouteRows returns the rows of the app's route table, without their
// handlers.
func RouteRows() []RouteRow {
	var out []RouteRow
	for _, rt := range (&App{}).table() {
		r := RouteRow{ID: rt.id, Method: rt.method, Path: rt.path, Public: rt.access.public, Level: rt.access.min}
		switch {
		case rt.access.public:
		case rt.access.param == "":
			r.SignedIn = true
		default:
			r.Scope = rt.access.scope.String()
		}
		out = append(out, r)
	}
	return out
}

// OpenCommentCounts is openCommentCounts, for the tests.
var OpenCommentCounts = openCommentCounts
