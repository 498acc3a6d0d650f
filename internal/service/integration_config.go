package service

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"quire/internal/adaptive"
	"quire/internal/quire"
)

// checkManifest fills a publication's defaults and checks what the
// published request shapes cannot say: that each configuration schema
// compiles as a JSON Schema. It notes the blocks' unfurled domains and
// whether there are blocks and content sources, for the listing filters.
func checkManifest(m *quire.IntegrationManifest) error {
	if m.Runtime == "" {
		m.Runtime = "v1"
	}
	if m.Visibility == "" {
		m.Visibility = quire.IntegrationPrivate
	}
	if m.Target == "" {
		m.Target = "all"
	}
	if m.Scopes == nil {
		m.Scopes = []string{}
	}
	if m.Categories == nil {
		m.Categories = []string{}
	}
	for kind, raw := range map[string][]byte{"account": m.Configurations.Account, "space": m.Configurations.Space, "site": m.Configurations.Site} {
		if _, err := configSchema(raw, "configurations."+kind); err != nil {
			return err
		}
	}
	var blocks []struct {
		URLUnfurl []string `json:"urlUnfurl"`
	}
	if len(m.Blocks) > 0 {
		if err := json.Unmarshal(m.Blocks, &blocks); err != nil {
			return quire.Invalid("blocks", "must be an array of blocks")
		}
	}
	m.HasBlocks, m.BlockDomains = len(blocks) > 0, nil
	seen := map[string]bool{}
	for _, b := range blocks {
		for _, raw := range b.URLUnfurl {
			host := raw
			if u, err := url.Parse(raw); err == nil && u.Host != "" {
				host = u.Hostname()
			}
			host = strings.ToLower(host)
			if host != "" && !seen[host] {
				seen[host] = true
				m.BlockDomains = append(m.BlockDomains, host)
			}
		}
	}
	sort.Strings(m.BlockDomains)
	var sources []json.RawMessage
	if len(m.ContentSources) > 0 {
		if err := json.Unmarshal(m.ContentSources, &sources); err != nil {
			return quire.Invalid("contentSources", "must be an array of content sources")
		}
	}
	m.HasContentSources = len(sources) > 0
	return nil
}

// configSchema compiles an installation configuration declared by a
// manifest (IntegrationConfigurationSchema) as the JSON Schema of the
// configurations it accepts: an object of the declared properties, the
// required ones present. A property of type button is an action, not a
// value, and accepts anything. A configuration rendered by a component
// (componentId), or none, gives a nil schema: anything goes.
func configSchema(raw []byte, field string) (*jsonschema.Schema, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var decl struct {
		Properties  map[string]map[string]any `json:"properties"`
		Required    []string                  `json:"required"`
		ComponentID *string                   `json:"componentId"`
	}
	if err := json.Unmarshal(raw, &decl); err != nil {
		return nil, quire.Invalid(field, "must be an object of properties and required names, or a componentId")
	}
	if decl.Properties == nil {
		if decl.ComponentID != nil {
			return nil, nil
		}
		return nil, quire.Invalid(field+".properties", "is required")
	}
	props := make(map[string]any, len(decl.Properties))
	for name, p := range decl.Properties {
		q := make(map[string]any, len(p))
		for k, v := range p {
			q[k] = v
		}
		switch p["type"] {
		case "string", "number", "boolean":
		case "button":
			delete(q, "type")
		default:
			return nil, quire.Invalid(field+".properties."+name+".type", "must be string, number, boolean or button")
		}
		props[name] = q
	}
	for _, r := range decl.Required {
		if _, ok := decl.Properties[r]; !ok {
			return nil, quire.Invalid(field+".required", "names %q, which is not a property", r)
		}
	}
	doc := map[string]any{"type": "object", "properties": props}
	if len(decl.Required) > 0 {
		doc["required"] = decl.Required
	}
	b, _ := json.Marshal(doc) // decoded JSON: cannot fail
	parsed, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, quire.Invalid(field, "is not valid JSON")
	}
	const loc = "urn:quire:integration-configuration"
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	c.UseLoader(jsonschema.SchemeURLLoader{})
	if err := c.AddResource(loc, parsed); err != nil {
		return nil, quire.Invalid(field, "is not a valid schema: %v", err)
	}
	sch, err := c.Compile(loc)
	if err != nil {
		var sve *jsonschema.SchemaValidationError
		if errors.As(err, &sve) {
			var ve *jsonschema.ValidationError
			if errors.As(sve.Err, &ve) {
				leaf := adaptive.Deepest(ve)
				return nil, quire.Invalid(field+configPath(leaf.InstanceLocation), "is not valid: %s",
					leaf.ErrorKind.LocalizedString(message.NewPrinter(language.English)))
			}
		}
		return nil, quire.Invalid(field, "is not a valid schema: %v", err)
	}
	return sch, nil
}

// checkConfiguration checks a configuration against the schema a
// manifest declares for it (see configSchema); field names the request
// member it came in.
func checkConfiguration(decl []byte, cfg map[string]any, field string) error {
	sch, err := configSchema(decl, "configurations")
	if err != nil || sch == nil {
		return err // a manifest stored is a manifest checked: err is nil
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		return quire.Invalid(field, "must be a JSON object")
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return quire.Invalid(field, "must be a JSON object")
	}
	if err := sch.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			leaf := adaptive.Deepest(ve)
			return quire.Invalid(field+configPath(leaf.InstanceLocation), "%s",
				leaf.ErrorKind.LocalizedString(message.NewPrinter(language.English)))
		}
		return quire.Invalid(field, "%v", err)
	}
	return nil
}

// configPath renders an instance location as a dotted suffix of a field
// name.
func configPath(loc []string) string {
	if len(loc) == 0 {
		return ""
	}
	return "." + strings.Join(loc, ".")
}
