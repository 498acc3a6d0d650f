// Package app is the web app where people sign in, find their way through
// their organizations, collections, spaces and pages, and manage members
// and teams. It is server-rendered HTML over the same service layer as the
// API: its handlers never touch SQL, and every route row names the access
// it needs, checked by the service's one authorization. Pages are drawn by
// the reader's renderer, so a writer sees what readers get. Its own CSS
// and JavaScript are small, embedded, and only enhance forms that work
// without them.
package app
