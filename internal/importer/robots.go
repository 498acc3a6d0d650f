package importer

import (
	"context"
	"net/url"

	"github.com/temoto/robotstxt"
)

// maxRobotsBytes is how much of a robots.txt is read, as crawlers
// commonly do.
const maxRobotsBytes = 512 << 10

// robots reads the robots.txt of start's host and returns the test of a
// URL on that host against the group matching the importer's user agent.
// A robots.txt that cannot be fetched for lack of an answer allows
// everything; an answer of 4xx allows everything and one of 5xx nothing,
// as RFC 9309 says.
func (r *run) robots(ctx context.Context, start *url.URL) func(*url.URL) bool {
	ru := &url.URL{Scheme: start.Scheme, Host: start.Host, User: start.User, Path: "/robots.txt"}
	status, body := 200, []byte(nil)
	resp, err := r.im.client.Get(ctx, ru.String())
	if err == nil {
		body, err = readAtMost(resp.Body, maxRobotsBytes)
		resp.Body.Close()
	}
	if err != nil {
		status = statusOf(err)
		if status == 0 {
			r.skip(ctx, ru, "robots.txt unreachable, everything allowed")
			return func(*url.URL) bool { return true }
		}
	}
	data, err := robotstxt.FromStatusAndBytes(status, body)
	if err != nil {
		r.skip(ctx, ru, "robots.txt unreadable, everything allowed")
		return func(*url.URL) bool { return true }
	}
	group := data.FindGroup(r.im.opts.UserAgent)
	return func(u *url.URL) bool {
		p := u.EscapedPath()
		if p == "" {
			p = "/"
		}
		if u.RawQuery != "" {
			p += "?" + u.RawQuery
		}
		return group.Test(p)
	}
}
