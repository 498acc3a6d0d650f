package httpapi

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"quire/internal/quire"
	"quire/internal/service"
)

// IntegrationMaxBody is the body limit of a publication, which carries
// the script, the icon and preview images.
const IntegrationMaxBody = 16 << 20

// IntegrationPath names an integration.
type IntegrationPath struct {
	IntegrationName string `path:"integrationName" minLength:"1" maxLength:"100" pattern:"^[a-zA-Z0-9-_.]+$" doc:"Name of the integration"`
}

// integrationBlockIn is a block an integration provides (IntegrationBlock).
type integrationBlockIn struct {
	ID          string   `json:"id" minLength:"1" maxLength:"100"`
	Title       string   `json:"title" minLength:"2" maxLength:"40"`
	Description string   `json:"description,omitempty" maxLength:"500"`
	Icon        string   `json:"icon,omitempty" maxLength:"2048"`
	URLUnfurl   []string `json:"urlUnfurl,omitempty" maxItems:"100"`
	Markdown    *struct {
		Codeblock string `json:"codeblock"`
		Body      string `json:"body"`
	} `json:"markdown,omitempty"`
}

// integrationContentSourceIn is a content source an integration provides.
type integrationContentSourceIn struct {
	ID            string `json:"id" minLength:"1" maxLength:"100"`
	Title         string `json:"title" minLength:"2" maxLength:"40"`
	Description   string `json:"description,omitempty" maxLength:"500"`
	Icon          string `json:"icon,omitempty" maxLength:"2048"`
	Configuration struct {
		ComponentID string `json:"componentId" minLength:"1"`
	} `json:"configuration"`
}

// externalLinkIn is a link of an integration's page.
type externalLinkIn struct {
	URL   string `json:"url" format:"uri" maxLength:"2048"`
	Label string `json:"label" maxLength:"100"`
}

// integrationConfigsIn are the configurations of the three kinds of
// installation (IntegrationConfigurations): each an object of properties
// and required names, checked as a JSON Schema, or a componentId.
type integrationConfigsIn struct {
	Account map[string]any `json:"account,omitempty" doc:"Configuration of the installation in an organization"`
	Space   map[string]any `json:"space,omitempty" doc:"Configuration of an installation on a space"`
	Site    map[string]any `json:"site,omitempty" doc:"Configuration of an installation on a site"`
}

// publishIntegrationIn is the PublishIntegration body.
type publishIntegrationIn struct {
	Runtime               string                       `json:"runtime,omitempty" enum:"v1,v2" doc:"Runtime the script runs in (default v1)"`
	Icon                  string                       `json:"icon,omitempty" format:"byte" maxLength:"2097152" doc:"Icon, base64"`
	Title                 string                       `json:"title" minLength:"2" maxLength:"30"`
	Description           string                       `json:"description" maxLength:"100"`
	Summary               string                       `json:"summary,omitempty" maxLength:"2048"`
	PreviewImages         []string                     `json:"previewImages,omitempty" maxItems:"3" doc:"Preview images, base64"`
	Visibility            string                       `json:"visibility,omitempty" enum:"public,private,unlisted" doc:"Who sees the integration (default private)"`
	Target                string                       `json:"target,omitempty" enum:"all,site,space,organization" doc:"What it installs on (default all)"`
	Scopes                []string                     `json:"scopes" maxItems:"32" enum:"space:content:read,space:content:write,space:metadata:read,space:metadata:write,space:git:sync,page:feedback:read,site:metadata:read,site:views:read,site:script:inject,site:script:cookies,site:visitor:auth,site:adaptive:read,site:adaptive:write,openapi:read,openapi:write,conversations:ingest"`
	Categories            []string                     `json:"categories,omitempty" maxItems:"7" enum:"analytics,collaboration,content,gitsync,marketing,visitor-auth,other"`
	Blocks                []integrationBlockIn         `json:"blocks,omitempty" maxItems:"100"`
	ContentSources        []integrationContentSourceIn `json:"contentSources,omitempty" maxItems:"100"`
	ExternalLinks         []externalLinkIn             `json:"externalLinks,omitempty" maxItems:"5"`
	Configurations        *integrationConfigsIn        `json:"configurations,omitempty"`
	Script                string                       `json:"script" doc:"The script, an ES module bundle"`
	Organization          string                       `json:"organization" minLength:"1" maxLength:"100" doc:"Id or hostname of the publishing organization"`
	Secrets               map[string]string            `json:"secrets,omitempty" maxProperties:"20"`
	ContentSecurityPolicy any                          `json:"contentSecurityPolicy,omitempty" doc:"Content security policy: a string, or an object of directives"`
}

// rawOrNil renders a value as JSON, nil for an empty one.
func rawOrNil(v any, empty bool) json.RawMessage {
	if empty {
		return nil
	}
	b, _ := json.Marshal(v) // decoded JSON: cannot fail
	return b
}

// manifest converts the body for the service, checking that the images
// are base64.
func (in *publishIntegrationIn) manifest() (quire.IntegrationManifest, error) {
	if _, err := base64.StdEncoding.DecodeString(in.Icon); err != nil {
		return quire.IntegrationManifest{}, quire.Invalid("icon", "must be base64")
	}
	for i, img := range in.PreviewImages {
		if _, err := base64.StdEncoding.DecodeString(img); err != nil {
			return quire.IntegrationManifest{}, quire.Invalid(fmt.Sprintf("previewImages[%d]", i), "must be base64")
		}
	}
	m := quire.IntegrationManifest{Runtime: in.Runtime, Title: in.Title, Description: in.Description, Summary: in.Summary,
		PreviewImages: in.PreviewImages, Visibility: quire.IntegrationVisibility(in.Visibility), Target: in.Target,
		Scopes: in.Scopes, Categories: in.Categories, Secrets: in.Secrets,
		Blocks: rawOrNil(in.Blocks, len(in.Blocks) == 0), ContentSources: rawOrNil(in.ContentSources, len(in.ContentSources) == 0),
		ExternalLinks: rawOrNil(in.ExternalLinks, len(in.ExternalLinks) == 0)}
	if c := in.Configurations; c != nil {
		m.Configurations = quire.IntegrationConfigs{Account: rawOrNil(c.Account, c.Account == nil),
			Space: rawOrNil(c.Space, c.Space == nil), Site: rawOrNil(c.Site, c.Site == nil)}
	}
	switch csp := in.ContentSecurityPolicy.(type) {
	case nil:
	case string:
		m.ContentSecurityPolicy = rawOrNil(csp, false)
	case map[string]any:
		for k, v := range csp {
			if _, ok := v.(string); !ok {
				return m, quire.Invalid("contentSecurityPolicy."+k, "must be a string")
			}
		}
		m.ContentSecurityPolicy = rawOrNil(csp, false)
	default:
		return m, quire.Invalid("contentSecurityPolicy", "must be a string or an object of directives")
	}
	return m, nil
}

// integrationJSON is the Integration object.
type integrationJSON struct {
	Object                string                    `json:"object" enum:"integration"`
	Name                  string                    `json:"name"`
	Version               int64                     `json:"version"`
	Title                 string                    `json:"title"`
	Description           string                    `json:"description"`
	Summary               string                    `json:"summary,omitempty"`
	PreviewImages         []string                  `json:"previewImages"`
	Target                string                    `json:"target"`
	Verified              bool                      `json:"verified"`
	Visibility            string                    `json:"visibility"`
	Scopes                []string                  `json:"scopes"`
	Categories            []string                  `json:"categories"`
	Blocks                json.RawMessage           `json:"blocks,omitempty"`
	ContentSources        json.RawMessage           `json:"contentSources,omitempty"`
	Configurations        *quire.IntegrationConfigs `json:"configurations,omitempty"`
	ExternalLinks         json.RawMessage           `json:"externalLinks"`
	Owner                 orgJSON                   `json:"owner"`
	ContentSecurityPolicy json.RawMessage           `json:"contentSecurityPolicy,omitempty"`
	Permissions           struct {
		Admin bool `json:"admin"`
	} `json:"permissions"`
	URLs struct {
		Location       string `json:"location" format:"uri"`
		Icon           string `json:"icon,omitempty" format:"uri"`
		App            string `json:"app" format:"uri"`
		Assets         string `json:"assets" format:"uri"`
		PublicEndpoint string `json:"publicEndpoint" format:"uri"`
	} `json:"urls"`
}

// integrationOut converts an integration for a caller.
func (s *Server) integrationOut(ctx context.Context, n *service.Integrations, in *quire.Integration) (integrationJSON, error) {
	owner, err := n.Owner(ctx, in)
	if err != nil {
		return integrationJSON{}, err
	}
	m := in.Manifest
	out := integrationJSON{Object: "integration", Name: in.Name, Version: in.Version, Title: m.Title,
		Description: m.Description, Summary: m.Summary, PreviewImages: []string{}, Target: m.Target,
		Visibility: string(m.Visibility), Scopes: m.Scopes, Categories: m.Categories, Blocks: m.Blocks,
		ContentSources: m.ContentSources, ExternalLinks: m.ExternalLinks, Owner: s.orgOut(owner, quire.LevelNone),
		ContentSecurityPolicy: m.ContentSecurityPolicy}
	if out.ExternalLinks == nil {
		out.ExternalLinks = json.RawMessage("[]")
	}
	if c := m.Configurations; c.Account != nil || c.Space != nil || c.Site != nil {
		out.Configurations = &c
	}
	out.Permissions.Admin = n.Admin(ctx, userFrom(ctx), in)
	out.URLs.Location = s.urls.api("integrations", in.Name)
	out.URLs.App = s.urls.app("integrations", in.Name)
	out.URLs.Assets = s.urls.api("integrations", in.Name, "assets")
	out.URLs.PublicEndpoint = n.PublicEndpoint(in)
	imgs := n.Images(in)
	if imgs.Icon != "" {
		out.URLs.Icon = s.urls.integrationImage(in.Name, imgs.Icon)
	}
	for _, d := range imgs.Previews {
		out.PreviewImages = append(out.PreviewImages, s.urls.integrationImage(in.Name, d))
	}
	return out, nil
}

// IntegrationFilters are the listing filters of integrations.
type IntegrationFilters struct {
	Search         string `query:"search" maxLength:"100" doc:"Text the name or title contains"`
	Category       string `query:"category" enum:"analytics,collaboration,content,gitsync,marketing,visitor-auth,other"`
	BlockDomain    string `query:"blockDomain" maxLength:"100" pattern:"^[a-zA-Z0-9-_.]+$" doc:"Domain the integration's blocks unfurl"`
	Blocks         string `query:"blocks" enum:"true,false" doc:"Only integrations with (true) or without (false) blocks"`
	ContentSources string `query:"contentSources" enum:"true,false" doc:"Only integrations with (true) or without (false) content sources"`
	Owner          string `query:"owner" maxLength:"100" doc:"Id of the publishing organization"`
	Scope          string `query:"scope" enum:"space:content:read,space:content:write,space:metadata:read,space:metadata:write,space:git:sync,page:feedback:read,site:metadata:read,site:views:read,site:script:inject,site:script:cookies,site:visitor:auth,site:adaptive:read,site:adaptive:write,openapi:read,openapi:write,conversations:ingest"`
	Target         string `query:"target" enum:"all,site,space,organization"`
}

// optBool reads an optional boolean query parameter: nil when absent.
func optBool(v string) *bool {
	if v == "" {
		return nil
	}
	b := v == "true"
	return &b
}

// integrationList converts a page of integrations.
func (s *Server) integrationList(ctx context.Context, n *service.Integrations, l *quire.List[*quire.Integration]) (*body[listOf[integrationJSON]], error) {
	out, err := listJSONOrErr(l, func(in *quire.Integration) (integrationJSON, error) { return s.integrationOut(ctx, n, in) })
	if err != nil {
		return nil, err
	}
	return reply(out), nil
}

func (s *Server) listIntegrations(ctx context.Context, in *struct {
	ListParams
	IntegrationFilters
}) (*body[listOf[integrationJSON]], error) {
	n, err := s.integrations.get()
	if err != nil {
		return nil, err
	}
	f := in.IntegrationFilters
	l, err := n.List(ctx, userFrom(ctx), quire.IntegrationFilter{Search: f.Search, Category: f.Category,
		BlockDomain: f.BlockDomain, Blocks: optBool(f.Blocks), ContentSources: optBool(f.ContentSources), Owner: f.Owner, Scope: f.Scope,
		Target: f.Target}, in.page())
	if err != nil {
		return nil, err
	}
	return s.integrationList(ctx, n, l)
}

func (s *Server) listSpaceIntegrations(ctx context.Context, in *struct {
	SpacePath
	ListParams
	Search string `query:"search" maxLength:"100" doc:"Text the name or title contains"`
}) (*body[listOf[integrationJSON]], error) {
	n, err := s.integrations.get()
	if err != nil {
		return nil, err
	}
	l, err := n.ListOnSpace(ctx, userFrom(ctx), in.SpaceID, in.Search, in.page())
	if err != nil {
		return nil, err
	}
	return s.integrationList(ctx, n, l)
}

func (s *Server) getIntegration(ctx context.Context, in *IntegrationPath) (*body[integrationJSON], error) {
	n, err := s.integrations.get()
	if err != nil {
		return nil, err
	}
	got, err := n.Get(ctx, userFrom(ctx), in.IntegrationName)
	return s.integrationBody(ctx, n, got, err)
}

// integrationBody answers an integration, or err.
func (s *Server) integrationBody(ctx context.Context, n *service.Integrations, in *quire.Integration, err error) (*body[integrationJSON], error) {
	if err != nil {
		return nil, err
	}
	out, err := s.integrationOut(ctx, n, in)
	if err != nil {
		return nil, err
	}
	return reply(out), nil
}

func (s *Server) publishIntegration(ctx context.Context, in *struct {
	IntegrationPath
	Body publishIntegrationIn
}) (*body[integrationJSON], error) {
	n, err := s.integrations.get()
	if err != nil {
		return nil, err
	}
	m, err := in.Body.manifest()
	if err != nil {
		return nil, err
	}
	got, err := n.Publish(ctx, userFrom(ctx), in.IntegrationName, service.PublishInput{Organization: in.Body.Organization,
		Manifest: m, Script: in.Body.Script, Icon: in.Body.Icon})
	return s.integrationBody(ctx, n, got, err)
}

func (s *Server) unpublishIntegration(ctx context.Context, in *IntegrationPath) (*statusOnly, error) {
	n, err := s.integrations.get()
	if err != nil {
		return nil, err
	}
	ok, err := n.Unpublish(ctx, userFrom(ctx), in.IntegrationName)
	if err != nil {
		return nil, err
	}
	return deleted(ok), nil
}

func (s *Server) setIntegrationDev(ctx context.Context, in *struct {
	IntegrationPath
	Body struct {
		TunnelURL string `json:"tunnelUrl" minLength:"1" maxLength:"256" doc:"URL of the tunnel to dispatch integration events to"`
		All       bool   `json:"all,omitempty" doc:"Forward every event to the tunnel, not only those of the owning organization"`
	}
}) (*statusOnly, error) {
	n, err := s.integrations.get()
	if err != nil {
		return nil, err
	}
	if err := n.SetDevelopment(ctx, userFrom(ctx), in.IntegrationName, in.Body.TunnelURL, in.Body.All); err != nil {
		return nil, err
	}
	return noContent(), nil
}

func (s *Server) disableIntegrationDev(ctx context.Context, in *IntegrationPath) (*statusOnly, error) {
	n, err := s.integrations.get()
	if err != nil {
		return nil, err
	}
	if err := n.SetDevelopment(ctx, userFrom(ctx), in.IntegrationName, "", false); err != nil {
		return nil, err
	}
	return &statusOnly{Status: 205}, nil
}
