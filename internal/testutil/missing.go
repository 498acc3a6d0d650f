package testutil

import (
	"os"
	"testing"
)

// Missing skips a test whose tool is not installed, saying why, but fails
// it when $CI is set: .ci/run installs every tool the tests use, so a
// missing one there is a broken set-up, not a reason to test less.
func Missing(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal(why)
	}
	t.Skip(why)
}
