package apiref

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing/fstest"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi/datamodel"
	v2high "github.com/pb33f/libopenapi/datamodel/high/v2"
	v3high "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/index"
	"go.yaml.in/yaml/v3"
)

// Problem is something wrong in a specification: a message a person can
// act on, a short code, and where it is.
type Problem struct {
	// Code is a short name of the kind of problem: syntax, not-openapi,
	// structure, unresolved-ref, unsupported-ref, missing-file, invalid.
	Code    string
	Message string
	// File is the path of the file at fault, Line its line (1-based, 0
	// when unknown), Pointer the JSON pointer of the node at fault.
	File    string
	Line    int
	Pointer string
}

// Spec is a parsed specification.
type Spec struct {
	// Version is the value of the main file's openapi or swagger field.
	Version string
	v3      *v3high.Document
	v2      *v2high.Swagger
}

// specRoot is the directory the files are placed in for the parser; it
// never touches the disk.
const specRoot = "/spec"

// Parse reads the specification whose main file is main among files,
// resolving the references between the files, and checks it. It returns
// the problems found; the Spec is nil when there is any.
func Parse(files Files, main string) (*Spec, []Problem) {
	text, ok := files[main]
	if !ok {
		return nil, []Problem{{Code: "missing-file", File: main, Message: "the main file " + quote(main) + " is missing"}}
	}
	var problems []Problem
	names := fileOrder(files, main)
	roots := make(map[string]*yaml.Node, len(files))
	for _, name := range names {
		if p, bad := jsonSyntax(name, files[name]); bad {
			problems = append(problems, p)
			continue
		}
		var root yaml.Node
		if err := yaml.Unmarshal([]byte(files[name]), &root); err != nil {
			problems = append(problems, syntaxProblem(name, err))
			continue
		}
		roots[name] = &root
	}
	if len(problems) > 0 {
		return nil, problems
	}
	version, problems := checkRoot(main, roots[main])
	if len(problems) > 0 {
		return nil, problems
	}
	fsys := fstest.MapFS{}
	for name, t := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(t)}
	}
	cfg := datamodel.NewDocumentConfiguration()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.BasePath = specRoot
	cfg.SpecFilePath = main
	cfg.LocalFS = fsys
	cfg.AllowFileReferences = true
	cfg.AllowRemoteReferences = false
	cfg.IgnorePolymorphicCircularReferences = true
	cfg.IgnoreArrayCircularReferences = true
	cfg.ResolveNestedRefsWithDocumentContext = true
	doc, err := libopenapi.NewDocumentWithConfiguration([]byte(text), cfg)
	if err != nil {
		return nil, []Problem{{Code: "invalid", File: main, Message: fmt.Sprintf("%s: %v", main, err)}}
	}
	spec := &Spec{Version: version}
	if strings.HasPrefix(version, "2") {
		m, err := doc.BuildV2Model()
		if problems := modelProblems(main, roots, err); len(problems) > 0 {
			return nil, problems
		}
		if m == nil {
			return nil, []Problem{{Code: "invalid", File: main, Message: main + ": the Swagger document could not be read"}}
		}
		spec.v2 = &m.Model
	} else {
		m, err := doc.BuildV3Model()
		if problems := modelProblems(main, roots, err); len(problems) > 0 {
			return nil, problems
		}
		if m == nil {
			return nil, []Problem{{Code: "invalid", File: main, Message: main + ": the OpenAPI document could not be read"}}
		}
		spec.v3 = &m.Model
	}
	return spec, nil
}

// fileOrder lists the file names, main first, then in path order.
func fileOrder(files Files, main string) []string {
	names := []string{main}
	rest := make([]string, 0, len(files))
	for name := range files {
		if name != main {
			rest = append(rest, name)
		}
	}
	slices.Sort(rest)
	return append(names, rest...)
}

// lineRE finds the line number in the YAML decoder's messages.
var lineRE = regexp.MustCompile(`line (\d+)`)

// syntaxProblem describes a file that is not valid YAML or JSON.
func syntaxProblem(name string, err error) Problem {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = strings.TrimSpace(strings.Replace(msg, m[0]+":", "", 1))
	}
	where := name
	if line > 0 {
		where = fmt.Sprintf("%s line %d", name, line)
	}
	return Problem{Code: "syntax", File: name, Line: line,
		Message: fmt.Sprintf("%s: not valid YAML or JSON: %s", where, msg)}
}

// checkRoot checks that the main file is an OpenAPI or Swagger document
// of a version the parser reads, and returns that version.
func checkRoot(main string, root *yaml.Node) (string, []Problem) {
	doc := root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		doc = doc.Content[0]
	}
	if doc.Kind != yaml.MappingNode {
		return "", []Problem{{Code: "not-openapi", File: main, Line: max(doc.Line, 1), Pointer: "",
			Message: main + ": not an OpenAPI document: it must be an object with an openapi (3.x) or swagger (2.0) field"}}
	}
	field := func(key string) *yaml.Node {
		for i := 0; i+1 < len(doc.Content); i += 2 {
			if doc.Content[i].Value == key {
				return doc.Content[i+1]
			}
		}
		return nil
	}
	var (
		version string
		at      *yaml.Node
		pointer string
	)
	if v := field("openapi"); v != nil {
		version, at, pointer = v.Value, v, "/openapi"
		if !strings.HasPrefix(version, "3.0") && !strings.HasPrefix(version, "3.1") && !strings.HasPrefix(version, "3.2") {
			return "", []Problem{{Code: "not-openapi", File: main, Line: v.Line, Pointer: pointer,
				Message: fmt.Sprintf("%s line %d: OpenAPI version %q is not supported: use 3.0, 3.1 or 3.2 (or swagger: \"2.0\")", main, v.Line, version)}}
		}
	} else if v := field("swagger"); v != nil {
		version, at, pointer = v.Value, v, "/swagger"
		if version != "2.0" {
			return "", []Problem{{Code: "not-openapi", File: main, Line: v.Line, Pointer: pointer,
				Message: fmt.Sprintf("%s line %d: Swagger version %q is not supported: use \"2.0\"", main, v.Line, version)}}
		}
	} else {
		return "", []Problem{{Code: "not-openapi", File: main, Line: max(doc.Line, 1),
			Message: main + ": not an OpenAPI document: it has neither an openapi nor a swagger field"}}
	}
	var problems []Problem
	if info := field("info"); info == nil {
		problems = append(problems, Problem{Code: "structure", File: main, Line: at.Line, Pointer: "/info",
			Message: main + ": the info object (with title and version) is missing"})
	} else if info.Kind != yaml.MappingNode {
		problems = append(problems, Problem{Code: "structure", File: main, Line: info.Line, Pointer: "/info",
			Message: fmt.Sprintf("%s line %d: info must be an object with title and version", main, info.Line)})
	}
	if paths := field("paths"); paths != nil && paths.Kind != yaml.MappingNode && paths.Tag != "!!null" {
		problems = append(problems, Problem{Code: "structure", File: main, Line: paths.Line, Pointer: "/paths",
			Message: fmt.Sprintf("%s line %d: paths must be an object of path items", main, paths.Line)})
	}
	return version, problems
}

// modelProblems turns the errors of building the model into problems;
// circular references, which a valid document may hold, are left out.
func modelProblems(main string, roots map[string]*yaml.Node, err error) []Problem {
	if err == nil {
		return nil
	}
	var out []Problem
	for _, e := range unwrapAll(err) {
		var re *index.ResolvingError
		if errors.As(e, &re) {
			if re.CircularReference != nil {
				continue
			}
			p := Problem{Code: "unresolved-ref", File: main, Pointer: re.Path}
			if re.Node != nil {
				p.Line = re.Node.Line
			}
			msg := re.ErrorRef.Error()
			if p.Line > 0 {
				p.Message = fmt.Sprintf("%s line %d: %s", main, p.Line, msg)
			} else {
				p.Message = fmt.Sprintf("%s: %s", main, msg)
			}
			out = append(out, p)
			continue
		}
		if strings.Contains(e.Error(), "circular reference") {
			continue
		}
		out = append(out, locate(main, roots, e))
	}
	return out
}

// refInMessageRE finds the reference a message of the parser names.
var refInMessageRE = regexp.MustCompile("`([^`]+)`")

// locate describes an error of the parser, placing it at the first $ref
// it names when there is one.
func locate(main string, roots map[string]*yaml.Node, e error) Problem {
	p := Problem{Code: "invalid", File: main, Message: fmt.Sprintf("%s: %v", main, e)}
	m := refInMessageRE.FindStringSubmatch(e.Error())
	if m == nil {
		return p
	}
	for _, name := range fileOrderOf(roots, main) {
		found := false
		walkRefs(roots[name], "", func(ref string, n *yaml.Node, pointer string) {
			if found || ref != m[1] && !strings.HasSuffix(m[1], ref) {
				return
			}
			found = true
			p = Problem{Code: "unresolved-ref", File: name, Line: n.Line, Pointer: pointer,
				Message: fmt.Sprintf("%s line %d: %v", name, n.Line, e)}
		})
		if found {
			break
		}
	}
	return p
}

// fileOrderOf lists the names of roots, main first.
func fileOrderOf(roots map[string]*yaml.Node, main string) []string {
	fs := Files{}
	for name := range roots {
		fs[name] = ""
	}
	return fileOrder(fs, main)
}

// jsonSyntax checks a file that looks like JSON with the JSON decoder,
// whose errors have an exact position; bad is false for a valid file or
// one that does not look like JSON.
func jsonSyntax(name, text string) (Problem, bool) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[") {
		return Problem{}, false
	}
	var v any
	err := json.Unmarshal([]byte(text), &v)
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return Problem{}, false
	}
	line := 1 + strings.Count(text[:min(int(se.Offset), len(text))], "\n")
	return Problem{Code: "syntax", File: name, Line: line,
		Message: fmt.Sprintf("%s line %d: not valid JSON: %v", name, line, se)}, true
}

// unwrapAll flattens joined errors.
func unwrapAll(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, unwrapAll(e)...)
		}
		return out
	}
	return []error{err}
}

// itoa formats an integer.
func itoa(n int) string { return strconv.Itoa(n) }
