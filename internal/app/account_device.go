package app

import (
	"strconv"
	"strings"
	"time"

	"quire/internal/quire"
)

// dateFormat is how the account page writes a day.
const dateFormat = "Jan 2, 2006"

// deviceName names the browser and system of a User-Agent the way a
// person recognises them, such as "Firefox on Linux"; an empty or unknown
// one is "Unknown browser".
func deviceName(ua string) string {
	browser := ""
	for _, b := range []struct{ token, name string }{
		{"Edg/", "Edge"}, {"OPR/", "Opera"}, {"Firefox/", "Firefox"}, {"Chrome/", "Chrome"},
		{"Safari/", "Safari"}, {"curl/", "curl"},
	} {
		if strings.Contains(ua, b.token) {
			browser = b.name
			break
		}
	}
	system := ""
	for _, s := range []struct{ token, name string }{
		{"iPhone", "iPhone"}, {"iPad", "iPad"}, {"Android", "Android"}, {"CrOS", "ChromeOS"},
		{"Windows", "Windows"}, {"Mac OS X", "macOS"}, {"Linux", "Linux"},
	} {
		if strings.Contains(ua, s.token) {
			system = s.name
			break
		}
	}
	switch {
	case browser != "" && system != "":
		return browser + " on " + system
	case browser != "":
		return browser
	case system != "":
		return "Browser on " + system
	}
	return "Unknown browser"
}

// methodName is how a session was opened, as the page says it.
func methodName(m string) string {
	switch m {
	case quire.SessionPassword:
		return "Password"
	case quire.SessionSAML:
		return "Single sign-on (SAML)"
	case quire.SessionOIDC:
		return "Single sign-on (OpenID Connect)"
	}
	return m
}

// ago says how long before now t was, coarsely: "just now", "5 minutes
// ago", "3 hours ago", "2 days ago", then the date.
func ago(t, now time.Time) string {
	d := now.Sub(t)
	unit := func(n int, one string) string {
		if n == 1 {
			return "1 " + one + " ago"
		}
		return strconv.Itoa(n) + " " + one + "s ago"
	}
	switch {
	case d < 2*time.Minute:
		return "Just now"
	case d < time.Hour:
		return unit(int(d/time.Minute), "minute")
	case d < 24*time.Hour:
		return unit(int(d/time.Hour), "hour")
	case d < 30*24*time.Hour:
		return unit(int(d/(24*time.Hour)), "day")
	}
	return t.Format(dateFormat)
}
