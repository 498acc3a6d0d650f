package apiref

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"path"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Files is the filesystem of a specification: the text of each file,
// keyed by its slash-separated path relative to the main file's directory.
type Files map[string]string

// MainName returns the name the main file of a specification fetched from
// rawURL is kept under: the last element of the URL's path when it names
// a YAML or JSON file, else openapi.yaml or openapi.json after text's
// first character.
func MainName(rawURL, text string) string {
	if u, err := url.Parse(rawURL); err == nil {
		base := path.Base(u.Path)
		switch strings.ToLower(path.Ext(base)) {
		case ".yaml", ".yml", ".json":
			return base
		}
	}
	if strings.HasPrefix(strings.TrimSpace(text), "{") {
		return "openapi.json"
	}
	return "openapi.yaml"
}

// ExternalRefs lists the files the file at name refers to through $ref,
// as paths of the filesystem, in order of first appearance. References
// inside the file (#/…) are not listed. A reference that is not a
// relative path to a YAML or JSON file beside or below the main file is
// a Problem. A file that is not YAML or JSON yields no references (Parse
// reports it).
func ExternalRefs(name, text string) ([]string, []Problem) {
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(text), &root); err != nil {
		return nil, nil
	}
	var (
		out      []string
		problems []Problem
	)
	walkRefs(&root, "", func(ref string, n *yaml.Node, pointer string) {
		target, _, _ := strings.Cut(ref, "#")
		if target == "" {
			return
		}
		p, problem := resolveRef(name, target)
		if problem != "" {
			problems = append(problems, Problem{Code: "unsupported-ref", File: name, Line: n.Line, Pointer: pointer,
				Message: problem})
			return
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	})
	return out, problems
}

// resolveRef returns the filesystem path of a reference made from the
// file at name, or why it cannot be followed.
func resolveRef(name, target string) (string, string) {
	u, err := url.Parse(target)
	if err != nil {
		return "", "the reference " + quote(target) + " is not a valid URL or path"
	}
	if u.Scheme != "" || u.Host != "" || strings.HasPrefix(u.Path, "/") {
		return "", "the reference " + quote(target) + " is not a relative path: only files beside the specification (such as ./schemas/pet.yaml) are read"
	}
	p := path.Clean(path.Join(path.Dir(name), u.Path))
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", "the reference " + quote(target) + " leaves the directory of the main file"
	}
	switch strings.ToLower(path.Ext(p)) {
	case ".yaml", ".yml", ".json":
	default:
		return "", "the reference " + quote(target) + " does not name a .yaml, .yml or .json file"
	}
	return p, ""
}

// walkRefs calls fn for every $ref string in the tree under n, with the
// JSON pointer of the object holding it.
func walkRefs(n *yaml.Node, pointer string, fn func(ref string, n *yaml.Node, pointer string)) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			walkRefs(c, pointer, fn)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Value == "$ref" && v.Kind == yaml.ScalarNode {
				fn(v.Value, v, pointer)
				continue
			}
			walkRefs(v, pointer+"/"+escapePointer(k.Value), fn)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			walkRefs(c, pointer+"/"+itoa(i), fn)
		}
	}
}

// Hash identifies the content of files: the SHA-256 of each file's path
// and normalized text, in path order. A YAML or JSON file is normalized
// to its data (so that formatting, comments and key order do not count);
// a file that does not decode counts as its text with line ends unified.
func Hash(files Files) string {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	h := sha256.New()
	for _, name := range names {
		norm := normalize(files[name])
		h.Write([]byte(itoa(len(name)) + ":" + name + itoa(len(norm)) + ":"))
		h.Write(norm)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// normalize returns the canonical bytes of a file's text.
func normalize(text string) []byte {
	var v any
	if err := yaml.Unmarshal([]byte(text), &v); err == nil {
		if b, err := json.Marshal(jsonable(v)); err == nil {
			return b
		}
	}
	return []byte(strings.ReplaceAll(text, "\r\n", "\n"))
}

// jsonable turns what YAML decodes into values encoding/json accepts
// (maps with keys other than strings become maps keyed by their text).
func jsonable(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = jsonable(e)
		}
		return t
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[yamlKey(k)] = jsonable(e)
		}
		return m
	case []any:
		for i, e := range t {
			t[i] = jsonable(e)
		}
		return t
	}
	return v
}

// yamlKey renders a non-string mapping key.
func yamlKey(k any) string {
	b, err := json.Marshal(jsonable(k))
	if err != nil {
		return ""
	}
	return strings.Trim(string(b), `"`)
}

// escapePointer escapes a JSON pointer token.
func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// quote quotes a value in a message.
func quote(s string) string { return `"` + s + `"` }
