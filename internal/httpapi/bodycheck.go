package httpapi

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/go-json-experiment/json/jsontext"
)

// checkBody reads every JSON request body once, before the framework
// decodes it, and refuses what encoding/json would quietly accept: invalid
// UTF-8 and unpaired surrogate escapes (which it turns into U+FFFD) and an
// object naming the same member twice (where it keeps the last). The
// answer is a 400 naming the field at fault. In lenient mode it also notes
// the members the operation does not declare, which the framework then
// ignores, and logs them at debug level. A value that may be one of
// several types (a oneOf) is checked here against the alternative of its
// type, so that the message names the member at fault rather than saying
// that no alternative matched.
//
// It runs after checkAccess, so a caller who may not see the subject gets
// the same answer whatever the body holds. Bodies over the operation's
// limit are handed on untouched for the framework to refuse with 413.
func (s *Server) checkBody(api huma.API) func(huma.Context, func(huma.Context)) {
	return func(ctx huma.Context, next func(huma.Context)) {
		op := ctx.Operation()
		schema := jsonBodySchema(op)
		if schema == nil || !isJSON(ctx.Header("Content-Type")) {
			next(ctx)
			return
		}
		src := ctx.BodyReader()
		if src == nil {
			next(ctx)
			return
		}
		limited := src
		if op.MaxBodyBytes > 0 {
			limited = io.LimitReader(src, op.MaxBodyBytes)
		}
		data, err := io.ReadAll(limited)
		switch {
		case err != nil:
			next(replayBody(ctx, data, errReader{err}))
			return
		case op.MaxBodyBytes > 0 && int64(len(data)) >= op.MaxBodyBytes:
			next(replayBody(ctx, data, src))
			return
		}
		reg := api.OpenAPI().Components.Schemas
		unknown, err := scanJSON(data, reg, schema, !s.cfg.StrictInput)
		if err != nil {
			_ = huma.WriteErr(api, ctx, http.StatusBadRequest, err.Error())
			return
		}
		if len(unknown) > 0 {
			s.log.Debug("ignored request fields the operation does not declare",
				"operation", op.OperationID, "fields", unknown)
		}
		next(replayBody(ctx, data, nil))
	}
}

// jsonBodySchema returns the schema of an operation's JSON request body,
// or nil when it takes none.
func jsonBodySchema(op *huma.Operation) *huma.Schema {
	if op == nil || op.RequestBody == nil {
		return nil
	}
	mt := op.RequestBody.Content["application/json"]
	if mt == nil || mt.Schema == nil {
		return nil
	}
	return mt.Schema
}

// isJSON reports whether a request content type is JSON; an absent one
// counts as JSON, as the framework reads it so.
func isJSON(contentType string) bool {
	if contentType == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// innerContext is huma.Context under a name that does not clash with its
// Context method when embedded.
type innerContext huma.Context

// bodyContext hands the framework a body that was already read.
type bodyContext struct {
	innerContext
	body io.Reader
	// whole is set when body holds all of the request's body.
	whole bool
}

// BodyReader returns the body read before, then whatever followed it.
func (c bodyContext) BodyReader() io.Reader { return c.body }

// SetReadDeadline sets the deadline of the connection's reads, as the
// framework does before it reads a body, unless the whole body was
// read already. net/http then has a read under way on the connection to
// notice the client leaving; a deadline would end it, and a failed read
// cancels the context of the connection, so that the handler, still at
// work, and every later request on the connection would see their
// context cancelled.
func (c bodyContext) SetReadDeadline(t time.Time) error {
	if c.whole {
		return nil
	}
	return c.innerContext.SetReadDeadline(t)
}

// Unwrap returns the wrapped context, for adapters that look through it.
func (c bodyContext) Unwrap() huma.Context { return c.innerContext }

// replayBody returns ctx with a body of data followed by rest.
func replayBody(ctx huma.Context, data []byte, rest io.Reader) huma.Context {
	var r io.Reader = bytes.NewReader(data)
	if rest != nil {
		r = io.MultiReader(r, rest)
	}
	return bodyContext{innerContext: ctx, body: r, whole: rest == nil}
}

// errReader fails every read with err, so that the framework reports a
// failed body read as it would have.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// jsonScan walks one JSON document with a strict decoder, following the
// request schema alongside to note undeclared members and to check the
// values of oneOf schemas.
type jsonScan struct {
	data []byte
	dec  *jsontext.Decoder
	// reg resolves schema references; nil when the schema is not
	// followed.
	reg huma.Registry
	// note is whether undeclared members are noted.
	note    bool
	unknown []string
}

// scanJSON checks that data is exactly one JSON value with valid UTF-8
// strings and no repeated member names. With a registry it also checks
// the values of oneOf schemas against the alternative of their type and,
// when note is set, returns the paths of the members schema does not
// declare.
func scanJSON(data []byte, reg huma.Registry, schema *huma.Schema, note bool) ([]string, error) {
	sc := &jsonScan{data: data, dec: jsontext.NewDecoder(bytes.NewReader(data)), reg: reg, note: note && reg != nil}
	if reg == nil {
		schema = nil
	}
	if err := sc.value(schema, ""); err != nil {
		if errors.Is(err, io.EOF) {
			// No value at all: the framework says so.
			return nil, nil
		}
		return nil, sc.describe(err)
	}
	if _, err := sc.dec.ReadToken(); !errors.Is(err, io.EOF) {
		return nil, errors.New("body: unexpected data after the JSON value")
	}
	return sc.unknown, nil
}

// value reads one value whose schema is s (nil when not followed).
func (sc *jsonScan) value(s *huma.Schema, path string) error {
	if alts := sc.typedOneOf(s); alts != nil {
		return sc.oneOfValue(alts, path)
	}
	s = sc.resolve(s)
	if s == nil {
		return sc.dec.SkipValue()
	}
	tok, err := sc.dec.ReadToken()
	if err != nil {
		return err
	}
	switch tok.Kind() {
	case '{':
		for sc.dec.PeekKind() != '}' {
			name, err := sc.dec.ReadToken()
			if err != nil {
				return err
			}
			key := name.String()
			sub, declared := member(s, key)
			p := joinField(path, key)
			if !declared && sc.note {
				sc.unknown = append(sc.unknown, p)
			}
			if err := sc.value(sub, p); err != nil {
				return err
			}
		}
	case '[':
		for i := 0; sc.dec.PeekKind() != ']'; i++ {
			if err := sc.value(s.Items, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	default:
		return nil
	}
	_, err = sc.dec.ReadToken()
	return err
}

// resolve follows a reference and returns nil for schemas whose members
// cannot be told apart from their shape alone (any, oneOf and the like).
func (sc *jsonScan) resolve(s *huma.Schema) *huma.Schema {
	if s == nil || sc.reg == nil {
		return nil
	}
	if s.Ref != "" {
		s = sc.reg.SchemaFromRef(s.Ref)
		if s == nil {
			return nil
		}
	}
	if len(s.OneOf) > 0 || len(s.AnyOf) > 0 || len(s.AllOf) > 0 {
		return nil
	}
	switch s.Type {
	case huma.TypeObject, huma.TypeArray:
		return s
	}
	return nil
}

// member returns the schema of an object member and whether the object
// declares it: as a property, or as a value of a map.
func member(s *huma.Schema, key string) (*huma.Schema, bool) {
	if p, ok := s.Properties[key]; ok {
		return p, true
	}
	if addl, ok := s.AdditionalProperties.(*huma.Schema); ok {
		return addl, true
	}
	return nil, s.Type != huma.TypeObject
}

// joinField appends a member name to a field path.
func joinField(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// describe turns a decoder error into a message that names the field.
func (sc *jsonScan) describe(err error) error {
	var me *memberError
	if errors.As(err, &me) {
		return me
	}
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) {
		return fmt.Errorf("body: %v", err)
	}
	field := sc.fieldOf(se.JSONPointer)
	if field == "" {
		field = "body"
	}
	msg := se.Err.Error()
	switch {
	case errors.Is(se.Err, jsontext.ErrDuplicateName):
		msg = "member given twice in the same object"
	case strings.Contains(msg, "surrogate"):
		// The decoder quotes the input after the escape; the field is
		// enough.
		msg = "unpaired UTF-16 surrogate escape in a string"
	}
	return fmt.Errorf("%s: %s", field, msg)
}

// fieldOf renders a JSON pointer as a field path such as
// "changes[0].files[1].name", reading from the decoder which containers
// are arrays.
func (sc *jsonScan) fieldOf(p jsontext.Pointer) string {
	var b strings.Builder
	i := 0
	for tok := range p.Tokens() {
		i++
		kind := jsontext.Kind('{')
		if i <= sc.dec.StackDepth() {
			kind, _ = sc.dec.StackIndex(i)
		}
		if kind == '[' {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}
