package storetest

import (
	"encoding/json"
	"testing"

	"quire/internal/quire"
)

// integration stores an integration of an organization, with its user.
func (f *fixture) integration(o *quire.Organization, name string, m quire.IntegrationManifest) *quire.Integration {
	f.t.Helper()
	u := f.user(name, "integration-"+name+"@integrations.invalid")
	now := f.tick()
	in := &quire.Integration{ID: quire.NewID(), Name: name, OrgID: o.ID, UserID: u.ID, Version: 1, Manifest: m,
		Script: "export default {}", SigningSecret: "secret", CreatedAt: now, UpdatedAt: now}
	must(f.t, f.st.CreateIntegration(ctx(f.t), in))
	return in
}

func integrationTests() []test {
	return []test{
		{"integrations/create, publish by version, filters and visibility", func(t *testing.T, f *fixture) {
			o, other := f.org("Docs"), f.org("Other")
			member := f.user("Mia", "mia@example.com")
			f.member(o, member, quire.RoleRead)
			a := f.integration(o, "alpha", quire.IntegrationManifest{Title: "Alpha", Visibility: quire.IntegrationPublic,
				Target: "all", Scopes: []string{"space:content:read"}, Categories: []string{"content"},
				Blocks: json.RawMessage(`[{"id":"b","title":"Block"}]`), HasBlocks: true, BlockDomains: []string{"cards.example.com"},
				Configurations: quire.IntegrationConfigs{Account: json.RawMessage(`{"properties":{}}`)},
				Secrets:        map[string]string{"K": "v"}})
			f.integration(o, "beta", quire.IntegrationManifest{Title: "Beta", Visibility: quire.IntegrationPrivate, Target: "space",
				Scopes: []string{"space:content:write"}, Categories: []string{}})
			f.integration(other, "gamma", quire.IntegrationManifest{Title: "Gamma_x", Visibility: quire.IntegrationUnlisted,
				Target: "site", Scopes: []string{}, Categories: []string{}})

			got, err := f.st.Integration(ctx(t), "alpha")
			must(t, err)
			equal(t, "integration", *got, *a)
			_, err = f.st.Integration(ctx(t), "nope")
			wantCode(t, err, quire.ENOTFOUND)
			dup := *a
			dup.ID = quire.NewID()
			wantCode(t, f.st.CreateIntegration(ctx(t), &dup), quire.ECONFLICT)

			next := *a
			next.Version, next.Manifest.Title = 2, "Alpha 2"
			ok, err := f.st.UpdateIntegration(ctx(t), &next, 5)
			must(t, err)
			equal(t, "update at another version", ok, false)
			ok, err = f.st.UpdateIntegration(ctx(t), &next, 1)
			must(t, err)
			equal(t, "update", ok, true)
			got, err = f.st.IntegrationByID(ctx(t), a.ID)
			must(t, err)
			equal(t, "updated", got.Version == 2 && got.Manifest.Title == "Alpha 2", true)
			must(t, f.st.SetIntegrationDev(ctx(t), a.ID, "https://tunnel.example.com", true))
			got, err = f.st.IntegrationByID(ctx(t), a.ID)
			must(t, err)
			equal(t, "development mode", got.DevTunnel == "https://tunnel.example.com" && got.DevAll, true)

			names := func(fl quire.IntegrationFilter) string {
				l, err := f.st.Integrations(ctx(t), fl, quire.Page{})
				must(t, err)
				var s string
				for _, in := range l.Items {
					s += in.Name + " "
				}
				return s
			}
			yes := true
			for _, c := range []struct {
				f    quire.IntegrationFilter
				want string
			}{
				{quire.IntegrationFilter{}, "alpha "},
				{quire.IntegrationFilter{Viewer: member.ID}, "alpha beta "},
				{quire.IntegrationFilter{Viewer: member.ID, Scope: "space:content:write"}, "beta "},
				{quire.IntegrationFilter{Viewer: member.ID, Category: "content"}, "alpha "},
				{quire.IntegrationFilter{Viewer: member.ID, Blocks: &yes}, "alpha "},
				{quire.IntegrationFilter{Viewer: member.ID, BlockDomain: "cards.example.com"}, "alpha "},
				{quire.IntegrationFilter{Viewer: member.ID, BlockDomain: "cards%"}, ""},
				{quire.IntegrationFilter{Viewer: member.ID, Target: "space"}, "alpha beta "},
				{quire.IntegrationFilter{Viewer: member.ID, Search: "ALPHA"}, "alpha "},
				{quire.IntegrationFilter{Owner: other.ID}, ""},
			} {
				equal(t, "filter", names(c.f), c.want)
			}
			l, err := f.st.Integrations(ctx(t), quire.IntegrationFilter{Viewer: member.ID}, quire.Page{Limit: 1})
			must(t, err)
			equal(t, "first page", len(l.Items) == 1 && l.Count == 2 && l.Next != "", true)
			l, err = f.st.Integrations(ctx(t), quire.IntegrationFilter{Viewer: member.ID}, quire.Page{Limit: 1, Cursor: l.Next})
			must(t, err)
			equal(t, "second page", len(l.Items) == 1 && l.Items[0].Name == "beta" && l.Next == "", true)

			_, err = f.st.UpdateOrganization(ctx(t), o.ID, quire.OrganizationUpdate{Hostname: ptr("docs")})
			must(t, err)
			byHost, err := f.st.OrganizationByHostname(ctx(t), "docs")
			must(t, err)
			equal(t, "by hostname", byHost.ID, o.ID)
			_, err = f.st.OrganizationByHostname(ctx(t), "")
			wantCode(t, err, quire.ENOTFOUND)

			ok, err = f.st.DeleteIntegration(ctx(t), a.ID)
			must(t, err)
			equal(t, "deleted", ok, true)
			ok, err = f.st.DeleteIntegration(ctx(t), a.ID)
			must(t, err)
			equal(t, "deleted again", ok, false)
		}},
		{"integrations/installations, content installations and events", func(t *testing.T, f *fixture) {
			o := f.org("Docs")
			in := f.integration(o, "alpha", quire.IntegrationManifest{Title: "Alpha", Visibility: quire.IntegrationPublic,
				Target: "all", Scopes: []string{}, Categories: []string{}})
			now := f.tick()
			inst := &quire.IntegrationInstallation{ID: quire.NewID(), IntegrationID: in.ID, OrgID: o.ID, Status: quire.InstallationActive,
				SpaceSelection: quire.SelectionSelected, SiteSelection: quire.SelectionAll,
				Configuration: map[string]any{"key": "k"}, ExternalIDs: []string{"ext_1", "ext%"}, CreatedAt: now, UpdatedAt: now}
			must(t, f.st.CreateInstallation(ctx(t), inst))
			dup := *inst
			dup.ID = quire.NewID()
			wantCode(t, f.st.CreateInstallation(ctx(t), &dup), quire.ECONFLICT)
			got, err := f.st.Installation(ctx(t), in.ID, inst.ID)
			must(t, err)
			equal(t, "installation", *got, *inst)
			got, err = f.st.InstallationIn(ctx(t), in.ID, o.ID)
			must(t, err)
			equal(t, "installation in the organization", got.ID, inst.ID)
			for ext, n := range map[string]int{"ext_1": 1, "ext%": 1, "ext": 0, "extx1": 0} {
				l, err := f.st.Installations(ctx(t), in.ID, ext, quire.Page{})
				must(t, err)
				equal(t, "installations with "+ext, len(l.Items), n)
			}
			inst.Status, inst.Configuration, inst.UpdatedAt = quire.InstallationPaused, map[string]any{"n": float64(2)}, f.tick()
			must(t, f.st.UpdateInstallation(ctx(t), inst))
			all, err := f.st.OrgInstallations(ctx(t), o.ID)
			must(t, err)
			equal(t, "organization installations", len(all) == 1 && all[0].Status == quire.InstallationPaused &&
				all[0].Configuration["n"] == float64(2), true)

			sp := f.space(o, "", "a0")
			c := &quire.ContentInstallation{InstallationID: inst.ID, IntegrationID: in.ID, Kind: quire.OnSpace, TargetID: sp.ID,
				Status: quire.InstallationActive, Configuration: map[string]any{}, ExternalIDs: []string{"repo"}, CreatedAt: now, UpdatedAt: now}
			must(t, f.st.PutContentInstallation(ctx(t), c))
			c.Configuration = map[string]any{"path": "docs/"}
			must(t, f.st.PutContentInstallation(ctx(t), c))
			gotC, err := f.st.ContentInstallation(ctx(t), inst.ID, quire.OnSpace, sp.ID)
			must(t, err)
			equal(t, "space installation", *gotC, *c)
			_, err = f.st.ContentInstallation(ctx(t), inst.ID, quire.OnSite, sp.ID)
			wantCode(t, err, quire.ENOTFOUND)
			cl, err := f.st.ContentInstallations(ctx(t), in.ID, "", quire.OnSpace, "repo", quire.Page{})
			must(t, err)
			equal(t, "space installations", len(cl.Items), 1)
			ids, err := f.st.InstallationTargets(ctx(t), inst.ID, quire.OnSpace)
			must(t, err)
			equal(t, "targets", ids, []string{sp.ID})

			ev := &quire.IntegrationEvent{ID: quire.NewID(), IntegrationID: in.ID, InstallationID: inst.ID, Space: sp.ID,
				Payload: json.RawMessage(`{"type":"space_installation_setup"}`), Status: quire.EventPending, CreatedAt: now, UpdatedAt: now}
			must(t, f.st.AddIntegrationEvent(ctx(t), ev))
			el, err := f.st.IntegrationEvents(ctx(t), in.ID, quire.Page{})
			must(t, err)
			equal(t, "pending events are not listed", len(el.Items), 0)
			ev.Status, ev.Attempts, ev.UpdatedAt = quire.EventFailed, 1, f.tick()
			ev.Logs = []quire.ScriptLog{{Time: f.tick(), Level: quire.ScriptLogError, Message: "boom"}}
			must(t, f.st.RecordIntegrationEvent(ctx(t), ev))
			gotE, err := f.st.IntegrationEvent(ctx(t), in.ID, ev.ID)
			must(t, err)
			equal(t, "event", *gotE, *ev)
			el, err = f.st.IntegrationEvents(ctx(t), in.ID, quire.Page{})
			must(t, err)
			equal(t, "events", len(el.Items), 1)

			ok, err := f.st.DeleteContentInstallation(ctx(t), inst.ID, quire.OnSpace, sp.ID)
			must(t, err)
			equal(t, "space installation deleted", ok, true)
			must(t, f.st.PutContentInstallation(ctx(t), c))
			ok, err = f.st.DeleteInstallation(ctx(t), inst.ID)
			must(t, err)
			equal(t, "installation deleted", ok, true)
			_, err = f.st.ContentInstallation(ctx(t), inst.ID, quire.OnSpace, sp.ID)
			wantCode(t, err, quire.ENOTFOUND)
		}},
	}
}
