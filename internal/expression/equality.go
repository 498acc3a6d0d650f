package expression

import "strings"

// jsEquality reads JavaScript's strict equality operators, === and !==, as
// == and != outside string literals. Each is replaced by a string of the
// same length, so positions in errors stay those of the source.
func jsEquality(src string) string {
	if !strings.Contains(src, "==") {
		return src
	}
	b := []byte(src)
	var quote byte
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case quote != 0:
			if c == '\\' && quote != '`' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case (c == '=' || c == '!') && i+2 < len(b) && b[i+1] == '=' && b[i+2] == '=':
			b[i+2] = ' '
			i += 2
		}
	}
	return string(b)
}
