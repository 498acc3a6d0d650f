package dump

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"unicode/utf8"
)

// neutral returns the engine-neutral value of raw, a value scanned from a
// column of kind k: a string, int64, bool, []byte or nil. SQLite gives
// its booleans as integers, and may hold text as bytes or the reverse.
func neutral(k Kind, raw any) (any, error) {
	if raw == nil {
		return nil, nil
	}
	switch k {
	case KindText:
		var s string
		switch v := raw.(type) {
		case string:
			s = v
		case []byte:
			s = string(v)
		default:
			return nil, fmt.Errorf("a %T in a text column", raw)
		}
		if !utf8.ValidString(s) {
			return nil, fmt.Errorf("text that is not valid UTF-8")
		}
		return s, nil
	case KindInt:
		switch v := raw.(type) {
		case int64:
			return v, nil
		case bool:
			return boolInt(v), nil
		case float64:
			if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
				return int64(v), nil
			}
		}
		return nil, fmt.Errorf("a %T in an integer column", raw)
	case KindBool:
		switch v := raw.(type) {
		case bool:
			return v, nil
		case int64:
			return v != 0, nil
		}
		return nil, fmt.Errorf("a %T in a boolean column", raw)
	case KindBytes:
		switch v := raw.(type) {
		case []byte:
			return v, nil
		case string:
			return []byte(v), nil
		}
		return nil, fmt.Errorf("a %T in a bytes column", raw)
	}
	return nil, fmt.Errorf("a column of kind %q", k)
}

// boolInt is 1 for true and 0 for false.
func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// convert turns a neutral value of kind from into a value for a column of
// kind to. Integers and booleans convert into each other (0 is false);
// other kinds must match.
func convert(v any, from, to Kind) (any, error) {
	if v == nil || from == to {
		return v, nil
	}
	switch {
	case from == KindInt && to == KindBool:
		return v.(int64) != 0, nil
	case from == KindBool && to == KindInt:
		return boolInt(v.(bool)), nil
	}
	return nil, fmt.Errorf("cannot load %s values into a %s column", from, to)
}

// encodeRow appends the line of a row of neutral values to buf, without
// the newline: a JSON array, bytes in standard base64.
func encodeRow(buf *bytes.Buffer, row []any) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(row); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1) // Encode ends with a newline
	return nil
}

// decodeRow reads a row's line back into neutral values of the kinds of
// cols.
func decodeRow(line []byte, cols []Column) ([]any, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var raw []any
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("not a JSON array: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one JSON value on the line")
	}
	if len(raw) != len(cols) {
		return nil, fmt.Errorf("%d values for %d columns", len(raw), len(cols))
	}
	row := make([]any, len(raw))
	for i, v := range raw {
		if v == nil {
			continue
		}
		var ok bool
		switch cols[i].Kind {
		case KindText:
			row[i], ok = v.(string)
		case KindInt:
			var n json.Number
			if n, ok = v.(json.Number); ok {
				var err error
				if row[i], err = n.Int64(); err != nil {
					ok = false
				}
			}
		case KindBool:
			row[i], ok = v.(bool)
		case KindBytes:
			var s string
			if s, ok = v.(string); ok {
				b, err := base64.StdEncoding.DecodeString(s)
				row[i], ok = b, err == nil
			}
		}
		if !ok {
			return nil, fmt.Errorf("column %s: %v is not a %s value", cols[i].Name, v, cols[i].Kind)
		}
	}
	return row, nil
}
