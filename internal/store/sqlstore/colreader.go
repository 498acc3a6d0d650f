package sqlstore

import (
	"fmt"
	"strconv"
)

// colReader converts the values a driver returns for a row (string,
// []byte, int64 or nil) into Go values, keeping the first failure in err.
// NULL reads as the zero value.
type colReader struct {
	err error
}

// str reads a text column.
func (c *colReader) str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case nil:
		return ""
	}
	c.fail(v, "text")
	return ""
}

// int reads an integer column.
func (c *colReader) int(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case nil:
		return 0
	case string:
		return c.parse(x)
	case []byte:
		return c.parse(string(x))
	}
	c.fail(v, "integer")
	return 0
}

// parse reads an integer the driver returned as text.
func (c *colReader) parse(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil && c.err == nil {
		c.err = fmt.Errorf("reading an integer column: %w", err)
	}
	return n
}

// fail records an unexpected value type.
func (c *colReader) fail(v any, want string) {
	if c.err == nil {
		c.err = fmt.Errorf("reading a %s column: unexpected %T", want, v)
	}
}
