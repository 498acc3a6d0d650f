package app

import (
	"net/http"

	"quire/internal/quire"
	"quire/internal/service"
)

// configTarget is what a configuration page configures: an
// installation (kind ""), or one of its space or site installations.
type configTarget struct {
	ints *service.Integrations
	ii   *service.InstalledIntegration
	kind quire.InstallationTarget
	// targetID and targetTitle name the space or site.
	targetID, targetTitle string
	// schema is the manifest's configuration of the kind, nil when it
	// declares none; config and status are those stored.
	schema *configSchema
	config map[string]any
	status string
}

// configData is what a configuration page shows.
type configData struct {
	Title string
	Icon  string
	// Of names what is configured: "" for the installation, else the
	// space's or site's title with its kind.
	Of, Kind     string
	Status       string
	Action, Back string
	// Fields are the form's fields; None says there is nothing to
	// configure; Kept names the members of the configuration the form
	// does not show and keeps.
	Fields []formField
	None   bool
	Kept   []string
	// Error is the message of a refused form.
	Error  string
	Notice string
}

// loadConfigTarget reads what the page configures: the installation of
// the page's integration in the page's organization, or its
// installation on the space or site of the path.
func (a *App) loadConfigTarget(r *http.Request, kind quire.InstallationTarget) (*configTarget, error) {
	ints, ii, err := a.installed(r)
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
	in, inst := ii.Integration, ii.Installation
	t := &configTarget{ints: ints, ii: ii, kind: kind}
	switch kind {
	case "":
		t.schema, t.config, t.status = parseConfigSchema(in.Manifest.Configurations.Account), inst.Configuration, inst.Status
		return t, nil
	case quire.OnSpace:
		t.targetID = r.PathValue("spaceId")
		t.schema = parseConfigSchema(in.Manifest.Configurations.Space)
	default:
		t.targetID = r.PathValue("siteId")
		t.schema = parseConfigSchema(in.Manifest.Configurations.Site)
	}
	_, c, err := ints.ContentInstallation(ctx, userFrom(ctx), in.Name, inst.ID, kind, t.targetID)
	if err != nil {
		return nil, err
	}
	t.config, t.status = c.Configuration, c.Status
	if kind == quire.OnSpace {
		sp, err := ints.SpaceOf(ctx, t.targetID)
		if err != nil {
			return nil, err
		}
		t.targetTitle = sp.Title
	} else {
		site, err := ints.SiteOf(ctx, t.targetID)
		if err != nil {
			return nil, err
		}
		t.targetTitle = site.Title
	}
	return t, nil
}

// path is the address of the target's configuration page.
func (t *configTarget) path() string {
	inst, name := t.ii.Installation, t.ii.Integration.Name
	if t.kind == "" {
		return integrationPath(inst.OrgID, name, "configuration")
	}
	return integrationPath(inst.OrgID, name, string(t.kind)+"s", t.targetID)
}

// installationConfig shows the configuration form of the installation.
func (a *App) installationConfig(w http.ResponseWriter, r *http.Request) error {
	return a.showConfig(w, r, "")
}

// spaceConfig shows the configuration form of a space installation.
func (a *App) spaceConfig(w http.ResponseWriter, r *http.Request) error {
	return a.showConfig(w, r, quire.OnSpace)
}

// siteConfig shows the configuration form of a site installation.
func (a *App) siteConfig(w http.ResponseWriter, r *http.Request) error {
	return a.showConfig(w, r, quire.OnSite)
}

// saveInstallationConfig saves the installation's configuration.
func (a *App) saveInstallationConfig(w http.ResponseWriter, r *http.Request) error {
	return a.saveConfig(w, r, "")
}

// saveSpaceConfig saves a space installation's configuration.
func (a *App) saveSpaceConfig(w http.ResponseWriter, r *http.Request) error {
	return a.saveConfig(w, r, quire.OnSpace)
}

// saveSiteConfig saves a site installation's configuration.
func (a *App) saveSiteConfig(w http.ResponseWriter, r *http.Request) error {
	return a.saveConfig(w, r, quire.OnSite)
}

// showConfig draws a configuration form with the stored configuration.
func (a *App) showConfig(w http.ResponseWriter, r *http.Request, kind quire.InstallationTarget) error {
	t, err := a.loadConfigTarget(r, kind)
	if err != nil {
		return err
	}
	var fields []formField
	if t.schema != nil {
		fields = t.schema.fields(t.config)
	}
	return a.drawConfig(w, r, http.StatusOK, t, fields, "")
}

// drawConfig draws a configuration page with its fields, and the
// message of a refused form.
func (a *App) drawConfig(w http.ResponseWriter, r *http.Request, status int, t *configTarget, fields []formField, msg string) error {
	in, inst := t.ii.Integration, t.ii.Installation
	sh, err := a.shell(r, inst.OrgID)
	if err != nil {
		return err
	}
	d := configData{Title: in.Manifest.Title, Icon: integrationIcon(t.ints, in), Of: t.targetTitle, Kind: string(t.kind),
		Status: statusText(t.status), Action: t.path(), Back: integrationPath(inst.OrgID, in.Name), Fields: fields,
		None: t.schema == nil, Kept: t.schema.kept(t.config), Error: msg, Notice: integrationNotice(r)}
	sh.Title, sh.Section = "Configure "+in.Manifest.Title, "integrations"
	return a.render(w, r, status, "integration_config", sh, d)
}

// saveConfig reads a configuration form into the configuration it says
// and has the service check it against the manifest's schema and store
// it, as the API's update does. A refused form is drawn again as typed,
// the field at fault named, and nothing is stored.
func (a *App) saveConfig(w http.ResponseWriter, r *http.Request, kind quire.InstallationTarget) error {
	t, err := a.loadConfigTarget(r, kind)
	if err != nil {
		return err
	}
	if t.schema == nil {
		return quire.Invalid(wholeConfigField, "the integration asks for no configuration here")
	}
	if err := r.ParseForm(); err != nil {
		return quire.Invalid(wholeConfigField, "the form could not be read")
	}
	ctx := r.Context()
	u, name, id := userFrom(ctx), t.ii.Integration.Name, t.ii.Installation.ID
	cfg, err := t.schema.read(r.PostForm, t.config)
	if err == nil {
		if kind == "" {
			_, _, err = t.ints.UpdateInstallation(ctx, u, name, id, service.InstallationUpdate{Configuration: cfg})
		} else {
			_, _, err = t.ints.UpdateContentInstallation(ctx, u, name, id, kind, t.targetID, service.ContentUpdate{Configuration: cfg})
		}
	}
	if field, msg, ok := t.schema.refusal(err, cfg); ok {
		fields := t.schema.typed(r.PostForm)
		for i := range fields {
			if fields[i].Name == field {
				fields[i].Error = msg
			}
		}
		return a.drawConfig(w, r, http.StatusUnprocessableEntity, t, fields, msg)
	} else if err != nil {
		return err
	}
	http.Redirect(w, r, integrationPath(t.ii.Installation.OrgID, name)+"?done=configured", http.StatusSeeOther)
	return nil
}
