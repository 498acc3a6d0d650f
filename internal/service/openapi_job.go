package service

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"unicode/utf8"

	"quire/internal/apiref"
	"quire/internal/fetch"
	"quire/internal/quire"
)

// Bounds of one specification's filesystem.
const (
	// maxOpenAPIFiles is how many files one specification may have, the
	// main file included.
	maxOpenAPIFiles = 100
	// maxOpenAPIBytes bounds the size of all the files of a specification.
	maxOpenAPIBytes = 32 << 20
	// maxOpenAPIProblems is how many problems a failed processing records.
	maxOpenAPIProblems = 20
)

// openAPIOutcome is what one processing found.
type openAPIOutcome struct {
	files      apiref.Files
	main       string
	validators fetch.Validators
	// unchanged is true when the source answered that nothing changed.
	unchanged bool
	code      quire.OpenAPIErrorCode
	problems  []quire.OpenAPIProblem
}

// RunJob processes one generation of a specification: it marks the
// specification in progress, fetches its files (for a URL source) and
// parses them, and records the outcome: a new version when the files
// changed, or the error code and problems of a failure, which leave the
// last good version in place. A job for a generation that is no longer
// the specification's does nothing. Only database failures are returned,
// for the queue to retry.
func (o *OpenAPISpecs) RunJob(ctx context.Context, job OpenAPIJob) error {
	spec, err := o.s.store.OpenAPISpecByID(ctx, job.Spec)
	if quire.IsNotFound(err) || err == nil && spec.Generation != job.Generation {
		return nil
	}
	if err != nil {
		return err
	}
	spec.State = quire.OpenAPIProgress
	if ok, err := o.s.store.UpdateOpenAPISpec(ctx, spec, job.Generation); err != nil || !ok {
		if quire.IsNotFound(err) {
			return nil
		}
		return err
	}
	var last *quire.OpenAPIVersion
	if spec.LastVersion != "" {
		if last, err = o.s.store.OpenAPIVersion(ctx, spec.ID, spec.LastVersion); err != nil && !quire.IsNotFound(err) {
			return err
		}
	}
	out := o.collect(ctx, spec, last)
	if out.code == "" && !out.unchanged {
		if _, problems := apiref.Parse(out.files, out.main); len(problems) > 0 {
			out.code, out.problems = quire.OpenAPIParseError, problemsOf(problems)
		}
	}
	return o.record(ctx, spec, job.Generation, last, out)
}

// record stores the outcome of a processing, with its new version if it
// made one, unless the specification moved to another generation.
func (o *OpenAPISpecs) record(ctx context.Context, spec *quire.OpenAPISpec, gen int64, last *quire.OpenAPIVersion, out openAPIOutcome) error {
	now := o.s.Now()
	spec.State, spec.LastProcessedAt = quire.OpenAPIComplete, &now
	if spec.SourceURL != "" {
		spec.CheckedAt = now
	}
	var version *quire.OpenAPIVersion
	switch {
	case out.code != "":
		spec.ErrorCode, spec.Errors = out.code, out.problems
		if len(spec.Errors) > maxOpenAPIProblems {
			spec.Errors = spec.Errors[:maxOpenAPIProblems]
		}
	default:
		spec.ErrorCode, spec.Errors = "", nil
		if out.validators != (fetch.Validators{}) || !out.unchanged {
			spec.ETag, spec.LastModified = out.validators.ETag, out.validators.LastModified
		}
		if !out.unchanged {
			hash := apiref.Hash(out.files)
			if last == nil || last.Hash != hash {
				version = &quire.OpenAPIVersion{ID: quire.NewID(), SpecID: spec.ID, Hash: hash, Main: out.main,
					Files: out.files, CreatedAt: now}
				spec.LastVersion = version.ID
			}
		}
	}
	err := o.s.store.WithTx(ctx, func(st quire.Store) error {
		if version != nil {
			if err := st.AddOpenAPIVersion(ctx, version); err != nil {
				return err
			}
		}
		ok, err := st.UpdateOpenAPISpec(ctx, spec, gen)
		if err == nil && !ok {
			return errStaleGeneration
		}
		return err
	})
	if errors.Is(err, errStaleGeneration) || quire.IsNotFound(err) {
		return nil
	}
	if err == nil {
		o.log.InfoContext(ctx, "openapi specification processed", "spec", spec.ID, "error", string(spec.ErrorCode),
			"newVersion", version != nil)
	}
	return err
}

// errStaleGeneration rolls back the record of a processing overtaken by a
// new source.
var errStaleGeneration = errors.New("openapi: the source changed during processing")

// collect gathers the files of the specification: its text, or its URL
// fetched with the files its references reach, within the fetch timeout.
func (o *OpenAPISpecs) collect(ctx context.Context, spec *quire.OpenAPISpec, last *quire.OpenAPIVersion) openAPIOutcome {
	if spec.SourceURL == "" {
		main := apiref.MainName("", spec.SourceText)
		out := openAPIOutcome{files: apiref.Files{main: spec.SourceText}, main: main}
		refs, problems := apiref.ExternalRefs(main, spec.SourceText)
		for _, r := range refs {
			problems = append(problems, apiref.Problem{Code: "unsupported-ref", File: main,
				Message: fmt.Sprintf("%s refers to the file %q, which cannot be read from a specification given as text: give the specification by URL, with its files beside it", main, r)})
		}
		if len(problems) > 0 {
			out.code, out.problems = quire.OpenAPIParseError, problemsOf(problems)
		}
		return out
	}
	fctx, cancel := context.WithTimeout(ctx, o.opts.FetchTimeout)
	defer cancel()
	out := o.fetchAll(fctx, spec, last)
	if out.code == quire.OpenAPIFetchError && fctx.Err() != nil && ctx.Err() == nil {
		out.code = quire.OpenAPIFetchTimeout
		out.problems = []quire.OpenAPIProblem{{Code: "timeout", Message: fmt.Sprintf(
			"fetching %s took longer than %s: check that the server answers quickly and is reachable from this server, then update the specification to try again",
			spec.SourceURL, o.opts.FetchTimeout)}}
	}
	return out
}

// fetchAll fetches the main file (conditionally, when a version exists)
// and every file its references reach.
func (o *OpenAPISpecs) fetchAll(ctx context.Context, spec *quire.OpenAPISpec, last *quire.OpenAPIVersion) openAPIOutcome {
	base, err := url.Parse(spec.SourceURL)
	if err != nil {
		return fetchFailure(spec.SourceURL, err)
	}
	var v fetch.Validators
	if last != nil {
		v = fetch.Validators{ETag: spec.ETag, LastModified: spec.LastModified}
	}
	resp, err := o.fetch.GetIfChanged(ctx, spec.SourceURL, v)
	var out openAPIOutcome
	if errors.Is(err, fetch.ErrNotModified) {
		out = openAPIOutcome{validators: v, main: last.Main, files: apiref.Files{last.Main: last.Files[last.Main]}}
		if len(last.Files) == 1 {
			out.unchanged = true
			return out
		}
	} else {
		if err != nil {
			return fetchFailure(spec.SourceURL, err)
		}
		text, err := readText(resp)
		if err != nil {
			return fetchFailure(spec.SourceURL, err)
		}
		main := apiref.MainName(spec.SourceURL, text)
		out = openAPIOutcome{files: apiref.Files{main: text}, main: main,
			validators: fetch.Validators{ETag: resp.ETag, LastModified: resp.LastModified}}
	}
	// Follow the references, breadth first.
	total := len(out.files[out.main])
	queue := []string{out.main}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		refs, problems := apiref.ExternalRefs(name, out.files[name])
		if len(problems) > 0 {
			out.code, out.problems = quire.OpenAPIParseError, problemsOf(problems)
			return out
		}
		for _, r := range refs {
			if _, ok := out.files[r]; ok {
				continue
			}
			if len(out.files) >= maxOpenAPIFiles {
				out.code = quire.OpenAPIParseError
				out.problems = []quire.OpenAPIProblem{{Code: "too-many-files", File: name,
					Message: fmt.Sprintf("the specification refers to more than %d files: merge some of them", maxOpenAPIFiles)}}
				return out
			}
			ref, _ := url.Parse(r) // a clean relative path: ExternalRefs checked it
			target := base.ResolveReference(ref).String()
			resp, err := o.fetch.Get(ctx, target)
			if err != nil {
				return fetchFailure(target, err, name)
			}
			text, err := readText(resp)
			if err != nil {
				return fetchFailure(target, err, name)
			}
			if total += len(text); total > maxOpenAPIBytes {
				out.code = quire.OpenAPIFetchError
				out.problems = []quire.OpenAPIProblem{{Code: "too-large",
					Message: fmt.Sprintf("the files of the specification are larger than %d MiB together", maxOpenAPIBytes>>20)}}
				return out
			}
			out.files[r] = text
			queue = append(queue, r)
		}
	}
	return out
}

// readText reads a fetched body as UTF-8 text.
func readText(resp *fetch.Response) (string, error) {
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", errNotText
	}
	return string(b), nil
}

// errNotText is a fetched file that is not UTF-8 text.
var errNotText = errors.New("not UTF-8 text")

// fetchFailure describes a failed fetch of rawURL, referred to from the
// file from when given.
func fetchFailure(rawURL string, err error, from ...string) openAPIOutcome {
	p := quire.OpenAPIProblem{Code: "fetch"}
	var fe *fetch.Error
	var tl *fetch.TooLargeError
	switch {
	case errors.As(err, &fe) && fe.Timeout:
		return openAPIOutcome{code: quire.OpenAPIFetchTimeout, problems: []quire.OpenAPIProblem{{Code: "timeout",
			Message: fmt.Sprintf("%s did not answer in time: check that the server is up and reachable from this server, then update the specification to try again", fe.URL)}}}
	case errors.As(err, &fe) && fe.Status != "":
		p.Message = fmt.Sprintf("%s answered %s: check the URL, and that the file is public", fe.URL, fe.Status)
	case errors.As(err, &fe):
		p.Message = fmt.Sprintf("%s could not be reached: check the URL and that the server is reachable from this server", fe.URL)
	case errors.As(err, &tl):
		p.Message = fmt.Sprintf("%s is larger than %d MiB", rawURL, tl.Max>>20)
	case errors.Is(err, errNotText):
		p.Code = "not-text"
		p.Message = fmt.Sprintf("%s is not UTF-8 text: an OpenAPI document is YAML or JSON", rawURL)
		return openAPIOutcome{code: quire.OpenAPIParseError, problems: []quire.OpenAPIProblem{p}}
	default:
		p.Message = fmt.Sprintf("could not fetch %s: %v", rawURL, err)
	}
	if len(from) > 0 {
		p.File = from[0]
		p.Message += " (referred to from " + from[0] + ")"
	}
	return openAPIOutcome{code: quire.OpenAPIFetchError, problems: []quire.OpenAPIProblem{p}}
}

// problemsOf converts the parser's problems.
func problemsOf(ps []apiref.Problem) []quire.OpenAPIProblem {
	out := make([]quire.OpenAPIProblem, 0, len(ps))
	for _, p := range ps {
		out = append(out, quire.OpenAPIProblem{Message: p.Message, Code: p.Code, File: p.File, Line: p.Line, Pointer: p.Pointer})
	}
	return out
}
