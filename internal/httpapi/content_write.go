package httpapi

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime"
	"strconv"

	"github.com/danielgtaylor/huma/v2"

	"quire/internal/quire"
	"quire/internal/service"
)

// ContentWriteMaxBody bounds the body of a content write, which may carry
// up to 20 files of 1 MB each in base64.
const ContentWriteMaxBody = 32 << 20

// documentInput is a page, comment or reply body: Markdown or a JSON
// document.
type documentInput struct {
	Markdown *string        `json:"markdown,omitempty" maxLength:"5000000"`
	Document map[string]any `json:"document,omitempty"`
}

// domain converts a body for the service; field names it in errors. A
// body with neither form is empty.
func (d documentInput) domain(field string) (service.DocumentInput, error) {
	switch {
	case d.Markdown != nil && d.Document != nil:
		return service.DocumentInput{}, quire.Invalid(field, "give markdown or document, not both")
	case d.Markdown != nil:
		return service.DocumentInput{Markdown: d.Markdown}, nil
	case d.Document != nil:
		b, err := json.Marshal(d.Document)
		if err != nil {
			return service.DocumentInput{}, quire.Invalid(field+".document", "%v", err)
		}
		return service.DocumentInput{JSON: b}, nil
	}
	return service.DocumentInput{}, nil
}

// fileInput is a file of an insert_files change: exactly one of url and
// base64.
type fileInput struct {
	Name        string `json:"name" minLength:"1" maxLength:"255"`
	Ref         string `json:"ref,omitempty" maxLength:"100"`
	ContentType string `json:"contentType,omitempty" maxLength:"255" pattern:"^[!#$%&'*+.^_\\x60|~0-9A-Za-z-]+/[!#$%&'*+.^_\\x60|~0-9A-Za-z-]+([ \\t]*;[ \\t]*[!#$%&'*+.^_\\x60|~0-9A-Za-z-]+=([!#$%&'*+.^_\\x60|~0-9A-Za-z-]+|\"[^\"\\\\\\x00-\\x1f\\x7f]*\"))*$" patternDescription:"a media type such as text/plain; charset=utf-8" doc:"Media type, type/subtype with optional parameters; guessed from the name or the content when omitted"`
	URL         string `json:"url,omitempty" format:"uri" maxLength:"2048"`
	Base64      string `json:"base64,omitempty" maxLength:"1398104" doc:"File content in base64, at most 1 MB decoded"`
}

// changeInput is one change of updateChangeRequestContent; which fields
// apply depends on the operation.
type changeInput struct {
	Operation     string           `json:"operation" enum:"insert_page,update_page,delete_page,revert_page,insert_files"`
	Ref           string           `json:"ref,omitempty" maxLength:"100" doc:"Alias of an inserted page that later changes of the batch may use"`
	Page          string           `json:"page,omitempty" maxLength:"100" doc:"Page id, or the ref of a page inserted earlier in the batch"`
	Into          nullable[string] `json:"into,omitempty" maxLength:"100" doc:"Parent page; null for the top level"`
	At            *int             `json:"at,omitempty" minimum:"0" doc:"Index among the new siblings"`
	Document      *documentInput   `json:"document,omitempty"`
	Title         *string          `json:"title,omitempty" minLength:"1" maxLength:"200"`
	Slug          *string          `json:"slug,omitempty" minLength:"1" maxLength:"100"`
	Emoji         *string          `json:"emoji,omitempty" maxLength:"50"`
	Icon          *string          `json:"icon,omitempty" maxLength:"50"`
	Description   *string          `json:"description,omitempty" maxLength:"1000"`
	Hidden        *bool            `json:"hidden,omitempty"`
	NoIndex       *bool            `json:"noIndex,omitempty"`
	NoRobotsIndex *bool            `json:"noRobotsIndex,omitempty"`
	Condition     *string          `json:"condition,omitempty" maxLength:"1024"`
	Files         []fileInput      `json:"files,omitempty" maxItems:"20"`
	Revision      string           `json:"revision,omitempty" maxLength:"100"`
	Block         []string         `json:"block,omitempty" maxItems:"1000"`
}

// domain converts a change for the service.
func (c changeInput) domain(field string) (service.ContentChange, error) {
	op := service.ChangeOperation(c.Operation)
	ch := service.ContentChange{Operation: op, Ref: c.Ref, Page: c.Page, At: c.At,
		Revision: c.Revision, Blocks: c.Block,
		Fields: service.PageFields{Title: c.Title, Slug: c.Slug, Emoji: c.Emoji, Icon: c.Icon,
			Description: c.Description, Condition: c.Condition, Hidden: c.Hidden, NoIndex: c.NoIndex,
			NoRobotsIndex: c.NoRobotsIndex}}
	if c.Into.Set {
		into := c.Into.Value
		ch.Into = &into
	}
	needPage := op == service.OpUpdatePage || op == service.OpDeletePage || op == service.OpRevertPage
	if needPage && c.Page == "" {
		return ch, quire.Invalid(field+".page", "required for %s", c.Operation)
	}
	if c.Document != nil {
		d, err := c.Document.domain(field + ".document")
		if err != nil {
			return ch, err
		}
		ch.Document = &d
	}
	for i, f := range c.Files {
		ff := fmt.Sprintf("%s.files[%d]", field, i)
		in := service.FileInput{Name: f.Name, Ref: f.Ref, ContentType: f.ContentType, URL: f.URL}
		// The pattern admits only media types; a parameter given twice is
		// the one case beyond what it can tell.
		if f.ContentType != "" {
			if _, _, err := mime.ParseMediaType(f.ContentType); err != nil {
				return ch, quire.Invalid(ff+".contentType", "not a media type: %v", err)
			}
		}
		switch {
		case (f.URL == "") == (f.Base64 == ""):
			return ch, quire.Invalid(ff, "give exactly one of url and base64")
		case f.Base64 != "":
			data, err := base64.StdEncoding.DecodeString(f.Base64)
			if err != nil {
				return ch, quire.Invalid(ff+".base64", "not valid base64")
			}
			if len(data) > service.MaxInlineFileBytes {
				return ch, quire.Invalid(ff+".base64", "at most %d bytes", service.MaxInlineFileBytes)
			}
			in.Data = data
		}
		ch.Files = append(ch.Files, in)
	}
	return ch, nil
}

// contentWriteIn is the input of updateChangeRequestContent.
type contentWriteIn struct {
	CRPath
	Compat bool `query:"compat" default:"true" doc:"When true the answer is the change request; when false it also lists what each change did"`
	Body   struct {
		Changes []changeInput `json:"changes" minItems:"1" maxItems:"50"`
	}
}

// Resolve reads compat from the query again once the body is decoded: the
// framework then fills every zero-valued field that has a default with that
// default, which would turn an explicit compat=false back into true. The
// value was validated as a boolean before.
func (in *contentWriteIn) Resolve(ctx huma.Context) []error {
	if v, err := strconv.ParseBool(ctx.Query("compat")); err == nil {
		in.Compat = v
	}
	return nil
}

// contentWriteResult is the answer of updateChangeRequestContent with
// compat=false.
type contentWriteResult struct {
	ChangeRequest changeRequestJSON `json:"changeRequest"`
	Changes       []changeOutcome   `json:"changes"`
	InsertedFiles []insertedFile    `json:"insertedFiles,omitempty"`
}

// changeOutcome says what one change did.
type changeOutcome struct {
	Object string `json:"object" enum:"created_page,updated_page,deleted_page,reverted_page,inserted_files"`
	Ref    string `json:"ref,omitempty"`
	Page   any    `json:"page,omitempty"`
}

// pageHandle identifies a page in a change outcome.
type pageHandle struct {
	Object string  `json:"object" enum:"page"`
	ID     string  `json:"id"`
	URLs   locURLs `json:"urls"`
}

// insertedFile is a file an insert_files change added.
type insertedFile struct {
	Ref  string   `json:"ref,omitempty"`
	File fileJSON `json:"file"`
}

func (s *Server) updateChangeRequestContent(ctx context.Context, in *contentWriteIn) (*body[any], error) {
	changes := make([]service.ContentChange, 0, len(in.Body.Changes))
	for i, c := range in.Body.Changes {
		ch, err := c.domain(fmt.Sprintf("changes[%d]", i))
		if err != nil {
			return nil, err
		}
		changes = append(changes, ch)
	}
	cr, results, err := s.svc.UpdateChangeRequestContent(ctx, userFrom(ctx), in.SpaceID, in.ChangeRequestID, changes)
	if err != nil {
		return nil, err
	}
	crOut, err := s.changeRequestInSpace(ctx, cr, in.SpaceID)
	if err != nil {
		return nil, err
	}
	spaceID := crOut.Space
	if in.Compat {
		return reply[any](crOut), nil
	}
	out := contentWriteResult{ChangeRequest: crOut, Changes: []changeOutcome{}}
	sg, err := s.svc.DownloadSigner(ctx)
	if err != nil {
		return nil, err
	}
	for i, r := range results {
		o := changeOutcome{Object: string(r.Operation), Ref: r.Ref}
		switch r.Operation {
		case service.OutcomeDeletedPage:
			o.Page = r.PageID
		case service.OutcomeInsertedFiles:
			for j, f := range r.Files {
				out.InsertedFiles = append(out.InsertedFiles, insertedFile{Ref: in.Body.Changes[i].Files[j].Ref,
					File: s.fileOut(sg, spaceID, cr.Revision, f, ReadOptions{Metadata: true})})
			}
		default:
			o.Page = pageHandle{Object: "page", ID: r.PageID,
				URLs: locURLs{Location: s.urls.api("spaces", spaceID, "change-requests", cr.ID, "content", "page", r.PageID)}}
		}
		out.Changes = append(out.Changes, o)
	}
	return reply[any](out), nil
}

// mergeJSON is the answer of a merge or an update.
type mergeJSON struct {
	Revision  string         `json:"revision"`
	Result    string         `json:"result" enum:"merge,update,conflicts"`
	Conflicts []conflictJSON `json:"conflicts,omitempty"`
}

// conflictJSON is one page or block both sides changed incompatibly.
type conflictJSON struct {
	Page   string `json:"page,omitempty"`
	File   string `json:"file,omitempty"`
	Field  string `json:"field,omitempty"`
	Block  string `json:"block,omitempty"`
	Reason string `json:"reason"`
}

// mergeOut converts a merge outcome.
func mergeOut(o *service.MergeOutcome) mergeJSON {
	out := mergeJSON{Revision: o.Revision, Result: o.Result}
	for _, c := range o.Conflicts {
		out.Conflicts = append(out.Conflicts, conflictJSON{Page: c.Page, File: c.File, Field: c.Field, Block: c.Block, Reason: c.Reason})
	}
	return out
}

func (s *Server) mergeChangeRequest(ctx context.Context, in *CRPath) (*body[mergeJSON], error) {
	o, err := s.svc.MergeChangeRequest(ctx, userFrom(ctx), in.SpaceID, in.ChangeRequestID)
	if err != nil {
		return nil, err
	}
	return reply(mergeOut(o)), nil
}

func (s *Server) updateChangeRequestFromMain(ctx context.Context, in *CRPath) (*body[mergeJSON], error) {
	o, err := s.svc.UpdateChangeRequestFromMain(ctx, userFrom(ctx), in.SpaceID, in.ChangeRequestID)
	if err != nil {
		return nil, err
	}
	return reply(mergeOut(o)), nil
}

// templateIn is the input of applyTemplateToSpace.
type templateIn struct {
	SpacePath
	Body struct {
		ID     string `json:"id" minLength:"1" maxLength:"100" doc:"Template id: product-docs, api-reference or knowledge-base"`
		Params *struct {
			ContentRefs map[string]quire.ContentRef `json:"contentRefs,omitempty" doc:"Content references by the names the template declares; the built-in templates declare none"`
		} `json:"params,omitempty"`
	}
}

func (s *Server) applyTemplate(ctx context.Context, in *templateIn) (*statusOnly, error) {
	var refs map[string]quire.ContentRef
	if in.Body.Params != nil {
		refs = in.Body.Params.ContentRefs
	}
	if err := s.svc.ApplyTemplate(ctx, userFrom(ctx), in.SpaceID, in.Body.ID, refs); err != nil {
		return nil, err
	}
	return &statusOnly{Status: 201}, nil
}
