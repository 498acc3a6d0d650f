package cli

import (
	"encoding/json"
	"io"
)

// printJSON writes v to w as one line of JSON.
func printJSON(w io.Writer, v any) error {
	return json.NewEncoder(w).Encode(v)
}
