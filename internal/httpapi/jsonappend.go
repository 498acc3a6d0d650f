package httpapi

import (
	"encoding/json"
	"io"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"
)

// jsonAppender is a response body that writes its own JSON: the hot list
// shapes implement it so that a page of objects is encoded without
// reflection. The output must decode to what encoding/json would produce
// for the same value.
type jsonAppender interface {
	appendJSON(b []byte) []byte
}

// maybeAppender is a body that can write its own JSON only for some type
// arguments, as a list envelope does when its items can.
type maybeAppender interface {
	tryAppendJSON(b []byte) ([]byte, bool)
}

// jsonFormat is the application/json format: bodies that write their own
// JSON do so into a pooled buffer, everything else goes through
// encoding/json as the framework's default format does.
func jsonFormat() huma.Format {
	pool := &sync.Pool{New: func() any { return new([]byte) }}
	return huma.Format{
		Marshal: func(w io.Writer, v any) error {
			var (
				out []byte
				ok  bool
				buf = pool.Get().(*[]byte)
			)
			switch a := v.(type) {
			case jsonAppender:
				out, ok = a.appendJSON((*buf)[:0]), true
			case maybeAppender:
				out, ok = a.tryAppendJSON((*buf)[:0])
			}
			if !ok {
				pool.Put(buf)
				enc := json.NewEncoder(w)
				enc.SetEscapeHTML(false)
				return enc.Encode(v)
			}
			out = append(out, '\n')
			_, err := w.Write(out)
			if cap(out) <= 1<<20 {
				// Keep the grown buffer for the next response.
				*buf = out[:0]
			}
			pool.Put(buf)
			return err
		},
		Unmarshal: json.Unmarshal,
	}
}

// tryAppendJSON writes the envelope when its items write their own JSON.
func (l listOf[T]) tryAppendJSON(b []byte) ([]byte, bool) {
	var zero T
	if _, ok := any(&zero).(jsonAppender); !ok && l.written == nil {
		return b, false
	}
	b = append(b, '{')
	if l.Next != nil {
		b = append(b, `"next":{"page":`...)
		b = appendJSONString(b, l.Next.Page)
		b = append(b, "},"...)
	}
	if l.Count != nil {
		b = append(b, `"count":`...)
		b = strconv.AppendInt(b, int64(*l.Count), 10)
		b = append(b, ',')
	}
	b = append(b, `"items":[`...)
	if l.written != nil {
		for i, item := range l.written {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, item...)
		}
		return append(b, "]}"...), true
	}
	for i := range l.Items {
		if i > 0 {
			b = append(b, ',')
		}
		b = any(&l.Items[i]).(jsonAppender).appendJSON(b)
	}
	return append(b, "]}"...), true
}

// appendJSONString appends s as a JSON string the way encoding/json does
// without HTML escaping: control characters, quotes, backslashes and the
// line and paragraph separators are escaped, invalid UTF-8 becomes U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendJSONBool appends a JSON boolean.
func appendJSONBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// appendStringMember appends ,"name": and a string value; the first
// member of an object is written by the caller without the comma.
func appendStringMember(b []byte, name, v string) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendJSONString(b, v)
}
