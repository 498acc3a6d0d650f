package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"quire/internal/service"
)

// The change request diff's shape and goal.
const (
	// appDiffPages is how many pages the measured change request edits.
	appDiffPages = 50
	// appDiffGoalP50 is the goal for its diff page.
	appDiffGoalP50 = 200 * time.Millisecond
)

// timeChangeRequestDiff opens a change request editing appDiffPages
// pages of the big space (each keeps its paragraph changed, and gains a
// heading, a paragraph and a list) and times its diff page, drawn side
// by side; it prints the figures with the ratio to the reader's cached
// page and reports whether the goal was met.
func timeChangeRequestDiff(ctx context.Context, h http.Handler, cookie *http.Cookie, svc *service.Service, fx *appFixture,
	readerP50 time.Duration, w io.Writer) (bool, error) {
	c, err := svc.Content(ctx, service.ContentRef{SpaceID: fx.spaceID})
	if err != nil {
		return false, err
	}
	pages, err := c.Pages(ctx)
	if err != nil {
		return false, err
	}
	cr, err := svc.CreateChangeRequest(ctx, fx.user, fx.spaceID, "Edit fifty pages")
	if err != nil {
		return false, err
	}
	md := "Some text for this page, edited.\n\n## Added heading\n\nAn added paragraph with **bold** and a [link](https://example.com).\n\n* item one\n* item two\n"
	var changes []service.ContentChange
	for _, p := range pages {
		if len(changes) == appDiffPages {
			break
		}
		if p.Parent == "" {
			continue // sections
		}
		changes = append(changes, service.ContentChange{Operation: service.OpUpdatePage, Page: p.ID, Document: &service.DocumentInput{Markdown: &md}})
	}
	if _, _, err := svc.UpdateChangeRequestContent(ctx, fx.user, fx.spaceID, cr.ID, changes); err != nil {
		return false, err
	}
	path := "/app/s/" + fx.spaceID + "/~/changes/" + strconv.Itoa(cr.Number) + "/diff?view=split"
	d, err := timePage(ctx, h, cookie, path)
	if err != nil {
		return false, err
	}
	p50, p99 := percentile(d, 0.5), percentile(d, 0.99)
	ok := p50 < appDiffGoalP50
	fmt.Fprintf(w, "  %-34s p50 %8s  p99 %8s  %6.1fx the reader's  %s (goal p50 < %s)\n", "change request diff, 50 pages",
		ms(p50), ms(p99), float64(p50)/float64(max(readerP50, time.Microsecond)), verdict(ok), appDiffGoalP50)
	return ok, nil
}
