// Package storetest is the conformance suite every quire.Store
// implementation passes: each engine's tests call Run with a function
// opening a fresh, empty store.
package storetest

import (
	"context"
	"testing"
	"time"

	"quire/internal/quire"
)

// Opener opens a fresh, empty store for one test, stamping its writes
// with the time now returns, and arranges (with t.Cleanup) for it to be
// closed and removed.
type Opener func(t *testing.T, now func() time.Time) quire.Store

// test is one case of the suite.
type test struct {
	name string
	run  func(t *testing.T, f *fixture)
}

// suite lists every case, grouped by the store interface it covers.
func suite() []test {
	var all []test
	for _, group := range [][]test{
		userTests(), organizationTests(), memberTests(), memberListTests(),
		teamTests(), collectionTests(), placeTests(), spaceTests(), trashTests(),
		accessTests(), grantTests(), txTests(), lockTests(), objectTests(), revisionTests(), changeRequestTests(),
		samlTests(), oidcTests(), sessionTests(),
		siteTests(), sitePublishingAuthTests(),
		commentTests(), reviewTests(), collectTests(), positionTests(), downloadKeyTests(), gitSyncTests(), gitSyncRunTests(), gitRedirectTests(), gitConfigTests(), queuedTests(), searchTests(),
		translationTests(),
		openAPITests(),
		integrationTests(),
		accountTests(),
		notificationTests(),
		auditTests(),
		rateLimitTests(),
	} {
		all = append(all, group...)
	}
	return all
}

// Run runs the conformance suite, each case in parallel on its own store.
func Run(t *testing.T, open Opener) {
	for _, tc := range suite() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newClock()
			st := open(t, c.Now)
			tc.run(t, newFixture(t, st, c))
		})
	}
}

// ctx is the context every call of the suite runs under.
func ctx(t *testing.T) context.Context { return t.Context() }
