package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"

	"quire/internal/quire"
	"quire/internal/store/sqlstore"
)

// listDepth is the page of the space list the deep list case reads: with
// 100 spaces a page and 10,000 spaces, the last one.
const listDepth = 100

// caseSpec is one endpoint to load: the paths requests cycle through and,
// for a list, the items each page must hold (-1 for an object).
type caseSpec struct {
	key, name string
	paths     []string
	items     int
}

// listCases returns the cases of the list section: the first page of the
// space list, and page listDepth, reached by following the cursors once.
// Keyset cursors make every page one index range scan, so the deep page
// should cost what the first one does.
func listCases(ctx context.Context, ld *loader, q target, orgID string) ([]caseSpec, error) {
	first := "/v1/orgs/" + orgID + "/spaces?limit=100"
	path := first
	for page := 1; page < listDepth; page++ {
		body, _, err := ld.capture(ctx, q, path)
		if err != nil {
			return nil, fmt.Errorf("walking the space list: %w", err)
		}
		var l struct {
			Next *struct {
				Page string `json:"page"`
			} `json:"next"`
		}
		if err := json.Unmarshal(body, &l); err != nil {
			return nil, err
		}
		if l.Next == nil {
			return nil, fmt.Errorf("the space list ends at page %d; -spaces must be at least %d", page, listDepth*100)
		}
		path = first + "&page=" + url.QueryEscape(l.Next.Page)
	}
	return []caseSpec{
		{"list", "GET /v1/orgs/{id}/spaces?limit=100", []string{first}, 100},
		{"list100", fmt.Sprintf("GET /v1/orgs/{id}/spaces page %d", listDepth), []string{path}, 100},
	}, nil
}

// printLists reports the list targets of one engine: page 1 against the
// bare handler, the deep page against page 1, and the size of the
// statement cache after the runs.
func printLists(w io.Writer, engine string, rows []row, st quire.Store) {
	var first, deep *row
	for i := range rows {
		switch {
		case rows[i].engine != engine:
		case rows[i].name == "GET /v1/orgs/{id}/spaces?limit=100":
			first = &rows[i]
		case rows[i].name == fmt.Sprintf("GET /v1/orgs/{id}/spaces page %d", listDepth):
			deep = &rows[i]
		}
	}
	if first != nil {
		fmt.Fprintf(w, "%-8s  list page 1: ratio %.3f to the bare handler (target >= 0.30 on sqlite)\n", engine, first.ratio())
	}
	if first != nil && deep != nil && deep.quire.rps > 0 {
		fmt.Fprintf(w, "%-8s  list page %d: %.0f rps, page 1 %.0f rps: page 1 is %.2fx as fast (target <= 1.2)\n",
			engine, listDepth, deep.quire.rps, first.quire.rps, first.quire.rps/deep.quire.rps)
	}
	if s, ok := st.(interface{ Stats() sqlstore.Stats }); ok {
		fmt.Fprintf(w, "%-8s  prepared statements cached after the runs: %d (bound 256)\n", engine, s.Stats().Prepared)
	}
}
