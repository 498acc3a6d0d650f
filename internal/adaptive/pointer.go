package adaptive

import "strings"

// pointer is a JSON Pointer (RFC 6901) as its reference tokens.
type pointer []string

// with returns the pointer one token deeper, leaving p as it was.
func (p pointer) with(token string) pointer {
	return append(p[:len(p):len(p)], token)
}

// String renders the pointer: "" for the whole document, else "/a/b" with
// "~" and "/" inside tokens escaped as "~0" and "~1".
func (p pointer) String() string {
	var b strings.Builder
	for _, t := range p {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}
