package document

import (
	"encoding/json"
	"testing"
)

// appendString writes every string as json.Marshal does.
func TestAppendStringMatchesEncoder(t *testing.T) {
	for _, s := range []string{"", "plain", "list-unordered", `q"uote`, `back\slash`, "tab\t", "<b>&</b>",
		"é", "\u2028", "\xff", "ctl\x01", "a b c 123 ~!@#$%^*()"} {
		want, _ := json.Marshal(s)
		if got := string(appendString(nil, s)); got != string(want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
}
