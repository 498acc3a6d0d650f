package gitbook

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// configYAML is the shape of .gitbook.yaml.
type configYAML struct {
	Root      string            `yaml:"root,omitempty"`
	Structure *structureYAML    `yaml:"structure,omitempty"`
	Redirects map[string]string `yaml:"redirects,omitempty"`
}

type structureYAML struct {
	Readme  string `yaml:"readme,omitempty"`
	Summary string `yaml:"summary,omitempty"`
}

// readConfig parses .gitbook.yaml; nil or blank data gives the defaults.
// Paths are normalised: a leading "./" and trailing slashes go, and a path
// leaving the project directory (or, for the structure files and the
// redirect targets, the root) is an error.
func readConfig(data []byte) (Config, map[string]string, error) {
	var cfg Config
	if len(bytes.TrimSpace(data)) == 0 {
		return cfg, nil, nil
	}
	cfg.Source = string(data)
	var raw configYAML
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return cfg, nil, fileErr(configFile, "%v", yamlMessage(err))
	}
	var ok bool
	if cfg.Root, ok = cleanPath(strings.TrimSpace(raw.Root)); !ok {
		return cfg, nil, fileErr(configFile, "root %q leaves the project directory", raw.Root)
	}
	if raw.Structure != nil {
		if cfg.Readme, ok = configPath(raw.Structure.Readme); !ok {
			return cfg, nil, fileErr(configFile, "structure.readme %q leaves the root", raw.Structure.Readme)
		}
		if cfg.Summary, ok = configPath(raw.Structure.Summary); !ok {
			return cfg, nil, fileErr(configFile, "structure.summary %q leaves the root", raw.Structure.Summary)
		}
	}
	if cfg.Readme == defaultReadme {
		cfg.Readme = ""
	}
	if cfg.Summary == defaultSummary {
		cfg.Summary = ""
	}
	var redirects map[string]string
	froms := make([]string, 0, len(raw.Redirects))
	for from := range raw.Redirects {
		froms = append(froms, from)
	}
	sort.Strings(froms)
	for _, from := range froms {
		to := raw.Redirects[from]
		key, ok := redirectPath(from)
		if !ok {
			return cfg, nil, fileErr(configFile, "redirect %q: the old path must be a path within the space (no URL, no \"..\", no query or fragment)", from)
		}
		target, ok := configPath(to)
		if !ok || target == "" || !plainPath(target) || strings.HasPrefix(strings.TrimSpace(to), "//") {
			return cfg, nil, fileErr(configFile, "redirect %q → %q: the target must be a file under the root", from, to)
		}
		if _, dup := redirects[key]; dup {
			return cfg, nil, fileErr(configFile, "redirect %q: the old path %q is given twice", from, key)
		}
		if redirects == nil {
			redirects = make(map[string]string, len(raw.Redirects))
		}
		redirects[key] = target
	}
	return cfg, redirects, nil
}

// redirectPath normalises the old path of a redirect: spaces and the
// slashes around it go. It reports false for anything but a relative
// URL path within the space: a URL, a "." or ".." segment, an empty
// segment, a query or a fragment.
func redirectPath(p string) (string, bool) {
	key := strings.Trim(strings.TrimSpace(p), "/")
	if key == "" || !plainPath(key) {
		return "", false
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return "", false
		}
	}
	return key, true
}

// plainPath reports whether p is a bare path: no URL scheme, no query or
// fragment, no backslash and no control character.
func plainPath(p string) bool {
	if strings.ContainsAny(p, "?#\\") {
		return false
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	if i := strings.IndexByte(p, ':'); i > 0 && !strings.Contains(p[:i], "/") {
		return false // a scheme, as in "https:" or "mailto:"
	}
	return true
}

// configPath normalises a path of .gitbook.yaml relative to the root.
func configPath(p string) (string, bool) {
	p = strings.TrimSpace(p)
	return cleanPath(strings.TrimLeft(p, "/"))
}

// yamlMessage returns a YAML error's text without the library's prefix.
func yamlMessage(err error) string {
	return strings.Join(strings.Fields(strings.TrimPrefix(err.Error(), "yaml: ")), " ")
}

// writeConfig renders .gitbook.yaml: cfg.Source when it says the same
// root, structure files and redirects, else a file of its own.
func writeConfig(cfg Config, redirects map[string]string) ([]byte, error) {
	if cfg.Source != "" {
		read, readRedirects, err := readConfig([]byte(cfg.Source))
		if err == nil && read.Root == cfg.Root && read.Readme == cfg.Readme && read.Summary == cfg.Summary &&
			sameVariables(readRedirects, redirects) {
			return []byte(cfg.Source), nil
		}
	}
	var b strings.Builder
	root := "./"
	if cfg.Root != "" {
		root = "./" + cfg.Root + "/"
	}
	b.WriteString("root: " + yamlScalar(root) + "\n")
	b.WriteString("\nstructure:\n")
	b.WriteString("  readme: " + yamlScalar(orDefault(cfg.Readme, defaultReadme)) + "\n")
	b.WriteString("  summary: " + yamlScalar(orDefault(cfg.Summary, defaultSummary)) + "\n")
	if len(redirects) > 0 {
		keys := make([]string, 0, len(redirects))
		for k := range redirects {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString("\nredirects:\n")
		for _, k := range keys {
			b.WriteString("  " + yamlScalar(k) + ": " + yamlScalar(redirects[k]) + "\n")
		}
	}
	out := []byte(b.String())
	// What is written must read back the same.
	var check configYAML
	if err := yaml.Unmarshal(out, &check); err != nil {
		return nil, fmt.Errorf("%s: %w", configFile, err)
	}
	return out, nil
}

// yamlScalar writes s as a YAML scalar, quoted only when it must be.
func yamlScalar(s string) string {
	var n yaml.Node
	n.SetString(s)
	if strings.ContainsAny(s, "\n\r") {
		n.Style = yaml.DoubleQuotedStyle
	}
	out, err := yaml.Marshal(&n)
	if err != nil {
		return fmt.Sprintf("%q", s)
	}
	return strings.TrimSuffix(string(out), "\n")
}

// orDefault returns s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
