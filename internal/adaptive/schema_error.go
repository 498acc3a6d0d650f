package adaptive

import "fmt"

// SchemaError tells why a visitor schema was refused: where in the schema
// document (a JSON Pointer, RFC 6901, relative to the schema itself; ""
// is the whole document) and what to change there.
type SchemaError struct {
	Pointer string
	Message string
}

// Error renders the error as "<pointer>: <message>", naming the whole
// document "(root)".
func (e *SchemaError) Error() string {
	at := e.Pointer
	if at == "" {
		at = "(root)"
	}
	return fmt.Sprintf("%s: %s", at, e.Message)
}

// schemaErrorf returns a SchemaError at the pointer made of the tokens.
func schemaErrorf(at pointer, format string, args ...any) *SchemaError {
	return &SchemaError{Pointer: at.String(), Message: fmt.Sprintf(format, args...)}
}
