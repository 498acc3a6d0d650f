package expression

import "fmt"

// Error tells why an expression was refused: where (Line and Column, both
// counted from 1, Column in characters) and what is wrong.
type Error struct {
	Line    int
	Column  int
	Message string
}

// Error renders the error as "line L, column C: message".
func (e *Error) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Message)
}

// errorAt returns an Error at the character of src at index at (counted
// in characters).
func errorAt(src string, at int, msg string) *Error {
	line, col := position(src, at)
	return &Error{Line: line, Column: col, Message: msg}
}

// position returns the line and column (both from 1) of the character at
// index at (counted in characters) of src.
func position(src string, at int) (line, col int) {
	line, col = 1, 1
	i := 0
	for _, r := range src {
		if i == at {
			break
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i++
	}
	return line, col
}
