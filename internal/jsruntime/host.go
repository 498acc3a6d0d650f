package jsruntime

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"hash"
	"io"
	"mime"
	"mime/multipart"
	"net/textproto"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/google/uuid"

	"quire/internal/quire"
)

// host builds the object of natives the prelude turns into globals.
func (l *loop) host() *goja.Object {
	vm := l.vm
	h := vm.NewObject()
	set := func(name string, v any) { _ = h.Set(name, v) }
	set("maxBody", l.cfg.MaxBody)
	set("maxLength", maxLength(l.cfg))
	set("utf8Encode", func(s goja.Value) goja.ArrayBuffer {
		return vm.NewArrayBuffer(utf8Encode(s))
	})
	set("utf8Decode", func(b goja.ArrayBuffer, fatal, ignoreBOM bool) string {
		return must[string](vm)(utf8Decode(b.Bytes(), fatal, ignoreBOM))
	})
	set("btoa", func(s goja.Value) string { return must[string](vm)(btoa(s)) })
	set("atob", func(s string) goja.Value { return must[goja.Value](vm)(atob(vm, s)) })
	set("randomBytes", func(n int) goja.ArrayBuffer {
		b := make([]byte, max(n, 0))
		_, _ = rand.Read(b)
		return vm.NewArrayBuffer(b)
	})
	set("randomUUID", func() string { return uuid.NewString() })
	set("digest", func(alg string, data goja.ArrayBuffer) goja.ArrayBuffer {
		h := newHash(alg)()
		h.Write(data.Bytes())
		return vm.NewArrayBuffer(h.Sum(nil))
	})
	set("hmac", func(alg string, key, data goja.ArrayBuffer) goja.ArrayBuffer {
		m := hmac.New(newHash(alg), key.Bytes())
		m.Write(data.Bytes())
		return vm.NewArrayBuffer(m.Sum(nil))
	})
	set("hmacVerify", func(alg string, key, sig, data goja.ArrayBuffer) bool {
		m := hmac.New(newHash(alg), key.Bytes())
		m.Write(data.Bytes())
		return hmac.Equal(m.Sum(nil), sig.Bytes())
	})
	set("encodeMultipart", func(parts [][]goja.Value) map[string]any {
		ct, body, err := encodeMultipart(parts)
		must[int](vm)(0, err)
		return map[string]any{"contentType": ct, "body": vm.NewArrayBuffer(body)}
	})
	set("parseMultipart", func(contentType string, body goja.ArrayBuffer) []any {
		return must[[]any](vm)(parseMultipart(vm, contentType, body.Bytes(), l.cfg.MaxBody))
	})
	set("log", func(level, msg string) {
		l.logs.add(quire.ScriptLogLevel(level), msg)
	})
	set("setTimer", func(fn goja.Callable, ms float64, repeat bool) int64 {
		return l.setTimer(fn, ms, repeat)
	})
	set("clearTimer", func(id int64) { l.clearTimer(id) })
	set("waitBegin", func() { l.waits++ })
	set("waitEnd", func() { l.waits-- })
	set("fetch", l.fetch)
	set("abortFetch", func(id int64) {
		if cancel, ok := l.fetches[id]; ok {
			cancel()
		}
	})
	return h
}

// maxLength bounds one string, array or buffer the built-ins allocate
// in one step: an eighth of the memory limit, as an element of an array
// takes 16 bytes and a character up to 2, but never below the body
// limit.
func maxLength(c Config) int64 {
	return max(c.Memory/8, c.MaxBody)
}

// newHash returns the constructor of a hash the prelude named (it only
// names these four).
func newHash(alg string) func() hash.Hash {
	switch alg {
	case "SHA-1":
		return sha1.New
	case "SHA-384":
		return sha512.New384
	case "SHA-512":
		return sha512.New
	default:
		return sha256.New
	}
}

// utf8Encode encodes a JavaScript string as UTF-8, lone surrogates as
// U+FFFD as TextEncoder does.
func utf8Encode(v goja.Value) []byte {
	if s, ok := v.Export().(string); ok && utf8.ValidString(s) {
		return []byte(s)
	}
	units := utf16.Decode(utf16Units(v.String()))
	return []byte(string(units))
}

// utf16Units is s as UTF-16 code units.
func utf16Units(s string) []uint16 {
	return utf16.Encode([]rune(s))
}

// utf8Decode decodes UTF-8 as TextDecoder does: invalid sequences become
// U+FFFD, or an error when fatal; a leading BOM is dropped unless
// ignoreBOM.
func utf8Decode(b []byte, fatal, ignoreBOM bool) (string, error) {
	if !ignoreBOM {
		b = bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF})
	}
	if utf8.Valid(b) {
		return string(b), nil
	}
	if fatal {
		return "", errorf("TypeError", "The encoded data was not valid for encoding utf-8")
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), nil
}

// btoa encodes a string of Latin-1 characters in base64.
func btoa(v goja.Value) (string, error) {
	s := v.String()
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xFF {
			return "", errorf("InvalidCharacterError", "Invalid character: the string to be encoded contains characters outside of the Latin1 range")
		}
		b = append(b, byte(r))
	}
	return base64.StdEncoding.EncodeToString(b), nil
}

// atob decodes base64 (white space ignored, padding optional) into a
// string of Latin-1 characters.
func atob(vm *goja.Runtime, s string) (goja.Value, error) {
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r' {
			return -1
		}
		return r
	}, s)
	if len(s)%4 == 0 {
		s = strings.TrimRight(s, "=")
	}
	b, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil {
		return nil, errorf("InvalidCharacterError", "The string to be decoded is not correctly encoded.")
	}
	units := make([]uint16, len(b))
	for i, c := range b {
		units[i] = uint16(c)
	}
	return vm.ToValue(string(utf16.Decode(units))), nil
}

// encodeMultipart writes FormData entries ([name, string] or [name,
// bytes, filename, type]) as a multipart/form-data body.
func encodeMultipart(parts [][]goja.Value) (string, []byte, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, p := range parts {
		if len(p) == 2 {
			if err := w.WriteField(p[0].String(), p[1].String()); err != nil {
				return "", nil, err
			}
			continue
		}
		data, _ := p[1].Export().(goja.ArrayBuffer)
		hdr := textproto.MIMEHeader{}
		hdr.Set("Content-Disposition", mime.FormatMediaType("form-data", map[string]string{"name": p[0].String(), "filename": p[2].String()}))
		ct := p[3].String()
		if ct == "" {
			ct = "application/octet-stream"
		}
		hdr.Set("Content-Type", ct)
		pw, err := w.CreatePart(hdr)
		if err != nil {
			return "", nil, err
		}
		if _, err := pw.Write(data.Bytes()); err != nil {
			return "", nil, err
		}
	}
	if err := w.Close(); err != nil {
		return "", nil, err
	}
	return w.FormDataContentType(), buf.Bytes(), nil
}

// parseMultipart reads a multipart/form-data body into entries: [name,
// string] for fields, [name, ArrayBuffer, filename, type] for files.
func parseMultipart(vm *goja.Runtime, contentType string, body []byte, maxBody int64) ([]any, error) {
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil || params["boundary"] == "" {
		return nil, errorf("TypeError", "Could not parse content as FormData: no boundary")
	}
	r := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	var out []any
	for {
		part, err := r.NextRawPart()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, errorf("TypeError", "Could not parse content as FormData: "+err.Error())
		}
		data, err := io.ReadAll(io.LimitReader(part, maxBody+1))
		if err != nil {
			return nil, errorf("TypeError", "Could not parse content as FormData: "+err.Error())
		}
		name := part.FormName()
		if part.FileName() == "" {
			out = append(out, []any{name, string(data)})
			continue
		}
		ct := part.Header.Get("Content-Type")
		out = append(out, []any{name, vm.NewArrayBuffer(data), part.FileName(), ct})
	}
}

// jsError is an error a native throws as a JavaScript error of the given
// name.
type jsError struct {
	name, message string
}

func (e *jsError) Error() string { return e.name + ": " + e.message }

func errorf(name, message string) error { return &jsError{name: name, message: message} }

// must returns a func that returns v, or throws err in the runtime: a
// *jsError as an error of its name (TypeError, or a DOMException),
// anything else as a TypeError.
func must[T any](vm *goja.Runtime) func(v T, err error) T {
	return func(v T, err error) T {
		if err == nil {
			return v
		}
		je, ok := err.(*jsError)
		if !ok {
			panic(vm.NewTypeError(err.Error()))
		}
		if je.name == "TypeError" {
			panic(vm.NewTypeError(je.message))
		}
		ctor := vm.Get("DOMException")
		obj, cerr := vm.New(ctor, vm.ToValue(je.message), vm.ToValue(je.name))
		if cerr != nil {
			panic(vm.NewTypeError(je.message))
		}
		panic(obj)
	}
}
