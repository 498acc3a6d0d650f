package sqlstore

import "strings"

// inListStep is the largest fixed IN-list size; longer lists are padded
// to a multiple of it.
const inListStep = 128

// inListLen is the length an IN list of n values is padded to: 1, 8, 32
// or 128, then the next multiple of 128. Every list length maps to one of
// a few query texts, so each is prepared once and the statement cache
// stays small.
func inListLen(n int) int {
	switch {
	case n <= 1:
		return 1
	case n <= 8:
		return 8
	case n <= 32:
		return 32
	}
	return (n + inListStep - 1) / inListStep * inListStep
}

// inList renders the placeholders of an IN list holding vals, which must
// not be empty, and appends its arguments to args. The list is padded to
// inListLen by repeating the last value, which leaves what IN matches
// unchanged.
func inList(args []any, vals []string) (string, []any) {
	n := inListLen(len(vals))
	for _, v := range vals {
		args = append(args, v)
	}
	for i := len(vals); i < n; i++ {
		args = append(args, vals[len(vals)-1])
	}
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", "), args
}
