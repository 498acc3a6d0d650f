package app_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"quire/internal/app"
	"quire/internal/quire"
	"quire/internal/service"
)

// routesFixture is an organization holding one of everything a POST
// route of the app acts on, and people at each level below an admin.
type routesFixture struct {
	h *harness
	// Collection Guides holds the space Install; Gone is a space in the
	// Trash; Writers a team holding Mia.
	Collection, Space, Gone, Team, Invite string
	// SAMLProvider is a pending SAML provider of the organization,
	// "Okta".
	SAMLProvider string
	// Translation is a translation of Install into German.
	Translation string
	// Change is the number of a draft change request of Install, by the
	// admin.
	Change string
	Mia    *quire.User
	// Comments: Page is a page of the space; Number an open change
	// request; Comment and Reply a comment on the page with a reply,
	// CRComment and CRReply the same on the change request.
	Page, Number, Comment, Reply, CRComment, CRReply string
	// Target is the number of a change request of Install holding the
	// page Intro, for the page operations.
	Target, Intro string
	// Integration is an integration installed in the organization, on
	// Install and on the site Site (installConfiguredIntegration).
	Integration string
	// Site is a site publishing Install at the root of its section
	// Install, and again in its section Guides (SiteSection, its site
	// space SiteSpace); SiteGroup an empty section group; ShareLink a
	// share link of the site, "Partners".
	Site, SiteSection, SiteSpace, SiteGroup, ShareLink string
	// Callers refused some routes: a person outside the organization,
	// a guest (member without a role), a reader and a creator.
	Outsider, Guest, Reader, Creator *http.Client
}

// newRoutesFixture builds the fixture in the harness's organization.
func newRoutesFixture(t *testing.T, h *harness, acc *service.Accounts) *routesFixture {
	t.Helper()
	ctx := context.Background()
	f := &routesFixture{h: h}
	guides, err := h.Svc.CreateCollection(ctx, h.Admin, h.Org, "Guides", "")
	if err != nil {
		t.Fatal(err)
	}
	f.Collection = guides.Collection.ID
	sp, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Install", Parent: f.Collection})
	if err != nil {
		t.Fatal(err)
	}
	f.Space = sp.Space.ID
	gone, err := h.Svc.CreateSpace(ctx, h.Admin, h.Org, service.SpaceInput{Title: "Gone"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Svc.DeleteSpace(ctx, gone.Space.ID); err != nil {
		t.Fatal(err)
	}
	f.Gone = gone.Space.ID
	f.Mia = h.newUser(t, "mia@acme.test", "Mia Member", quire.RoleRead)
	team, err := h.Svc.CreateTeam(ctx, h.Org, "Writers", []string{f.Mia.ID})
	if err != nil {
		t.Fatal(err)
	}
	f.Team = team.ID
	if err := h.Svc.InviteToSpace(ctx, f.Space, quire.RoleRead, []string{f.Mia.ID}, nil); err != nil {
		t.Fatal(err)
	}
	if err := h.Svc.InviteToCollection(ctx, f.Collection, quire.RoleRead, []string{f.Mia.ID}, nil); err != nil {
		t.Fatal(err)
	}
	inv, err := acc.CreateInvite(ctx, h.Org, quire.RoleRead)
	if err != nil {
		t.Fatal(err)
	}
	f.Invite = inv.ID
	p, err := service.NewSAML(h.Svc).CreateProvider(ctx, h.Org, service.SAMLProviderInput{Label: ptr("Okta")})
	if err != nil {
		t.Fatal(err)
	}
	f.SAMLProvider = p.ID
	de := "de"
	tr, err := service.NewTranslations(h.Svc, nil).Create(ctx, h.Admin, h.Org, service.TranslationInput{SourceSpace: f.Space, SourceLanguage: "en", Language: &de})
	if err != nil {
		t.Fatal(err)
	}
	f.Translation = tr.ID
	f.commentFixture(t)
	cr, err := h.Svc.CreateChangeRequest(ctx, h.Admin, f.Space, "Fix the install steps")
	if err != nil {
		t.Fatal(err)
	}
	f.Change = strconv.Itoa(cr.Number)
	res := h.writeAndMerge(t, f.Space, "First page", pageChange("intro", "Intro", "intro", "Hello.\n", nil))
	f.Intro = res[0].PageID
	cr, err = h.Svc.CreateChangeRequest(ctx, h.Admin, f.Space, "Edits")
	if err != nil {
		t.Fatal(err)
	}
	f.Target = strconv.Itoa(cr.Number)
	f.siteFixture(t)
	f.Integration = installConfiguredIntegration(t, h, f.Space, f.Site)

	f.Outsider = h.client(t, h.signIn(t, h.newUser(t, "otto@other.test", "Otto Outsider", "")))
	guest := h.newUser(t, "gus@acme.test", "Gus Guest", quire.RoleRead)
	none := quire.Role("")
	if _, err := h.Svc.UpdateMemberRole(ctx, h.Org, guest.ID, &none); err != nil {
		t.Fatal(err)
	}
	f.Guest = h.client(t, h.signIn(t, guest))
	f.Reader = h.client(t, h.signIn(t, h.newUser(t, "rita@acme.test", "Rita Read", quire.RoleRead)))
	f.Creator = h.client(t, h.signIn(t, h.newUser(t, "carl@acme.test", "Carl Create", quire.RoleCreate)))
	return f
}

// siteFixture gives the organization a site with a section, a site
// space, a section group and a share link, for the site routes.
func (f *routesFixture) siteFixture(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	h := f.h
	sites := service.NewSites(h.Svc)
	site, err := sites.CreateSite(ctx, h.Admin, h.Org, service.SiteCreate{Title: "Portal", Spaces: []string{f.Space}})
	if err != nil {
		t.Fatal(err)
	}
	f.Site = site.ID
	r, err := sites.AddSection(ctx, h.Admin, h.Org, site.ID, service.SectionCreate{SpaceID: f.Space, Title: "Guides"})
	if err != nil {
		t.Fatal(err)
	}
	f.SiteSection = r.ID
	f.SiteSpace = r.Structure.SectionByID(r.ID).SiteSpaces[0].SiteSpace.ID
	if r, err = sites.AddSectionGroup(ctx, h.Admin, h.Org, site.ID, service.GroupCreate{Title: "Reference"}); err != nil {
		t.Fatal(err)
	}
	f.SiteGroup = r.ID
	_, l, err := sites.CreateSiteShareLink(ctx, h.Org, site.ID, "Partners")
	if err != nil {
		t.Fatal(err)
	}
	f.ShareLink = l.ID
}

// commentFixture gives the space a page, an open change request, and
// on each a comment with a reply, for the comment routes.
func (f *routesFixture) commentFixture(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	h := f.h
	top := ""
	res := h.writeAndMerge(t, f.Space, "A page", pageChange("start", "Start", "start", "Hello.\n", &top))
	f.Page = res[0].PageID
	cr, err := h.Svc.CreateChangeRequest(ctx, h.Admin, f.Space, "Discuss")
	if err != nil {
		t.Fatal(err)
	}
	f.Number = strconv.Itoa(cr.Number)
	w := service.Commenter{User: h.Admin, Level: quire.LevelAdmin}
	md := "A question."
	for _, sc := range []struct {
		scope          service.CommentScope
		comment, reply *string
	}{{service.CommentScope{SpaceID: f.Space}, &f.Comment, &f.Reply}, {service.CommentScope{SpaceID: f.Space, ChangeRequest: cr.ID}, &f.CRComment, &f.CRReply}} {
		cv, err := h.Svc.PostComment(ctx, w, sc.scope, service.CommentInput{Page: f.Page, Body: service.DocumentInput{Markdown: &md}})
		if err != nil {
			t.Fatal(err)
		}
		rv, err := h.Svc.PostReply(ctx, w, sc.scope, cv.Comment.ID, service.DocumentInput{Markdown: &md})
		if err != nil {
			t.Fatal(err)
		}
		*sc.comment, *sc.reply = cv.Comment.ID, rv.Reply.ID
	}
}

// params are the example values of the routes' path parameters: the
// fixture's own ids. The sharing routes' principal is Mia, shared on
// both the space and the collection. routeParams changes them for the
// routes that need others.
func (f *routesFixture) params() map[string]string {
	return map[string]string{
		"organizationId": f.h.Org,
		"spaceId":        f.Space,
		"collectionId":   f.Collection,
		"teamId":         f.Team,
		"userId":         f.Mia.ID,
		"inviteId":       f.Invite,
		"samlProviderId": f.SAMLProvider,
		"translationId":  f.Translation,
		"number":         f.Change,
		"commentId":      f.Comment,
		"replyId":        f.Reply,
		// No such revision: the history routes refuse before they read
		// one.
		"revisionId": "nosuchrevision",
		// The edit target: the space's main content, live; a block that
		// is not there.
		"target": "live",
		"pageId": f.Intro,
		"key":    "nosuchblock",
		// The public and account routes' parameters: their paths are
		// filled, though the routes are not sent.
		"secret":         "nosuchsecret",
		"sessionId":      "nosuchsession",
		"tokenId":        "nosuchtoken",
		"notificationId": "999999",
		"kind":           "users",
		"principalId":    f.Mia.ID,
		// The installed integration\'s routes.
		"integrationName": f.Integration,
		// The site routes: the fixture's site and its items; the item
		// moved is the section Guides.
		"siteId":             f.Site,
		"siteSectionId":      f.SiteSection,
		"siteSectionGroupId": f.SiteGroup,
		"siteSpaceId":        f.SiteSpace,
		"itemId":             f.SiteSection,
		"shareLinkId":        f.ShareLink,
		// An OpenAPI specification given as text (openAPIRoutesFixture).
		"specSlug": "petstore",
	}
}

// routeParams are the path parameters some routes need other than the
// common ones: restoring needs a space in the Trash; the change request
// comments theirs; the page operations a change request holding Intro;
// the editor's block routes a page that is not there; the conflicts a
// change request that is not there.
func (f *routesFixture) routeParams(id string) map[string]string {
	switch {
	case id == "appSpaceRestore":
		return map[string]string{"spaceId": f.Gone}
	case strings.HasPrefix(id, "appCRComment"):
		return map[string]string{"number": f.Number, "commentId": f.CRComment, "replyId": f.CRReply}
	case strings.HasPrefix(id, "appPage"):
		return map[string]string{"target": f.Target}
	case strings.HasPrefix(id, "appEditBlock"), strings.HasPrefix(id, "appEditMarkdown"), id == "appEditPreview":
		return map[string]string{"pageId": "nosuchpage"}
	case id == "appChangeRequestConflictsResolve":
		return map[string]string{"number": "999"}
	}
	return nil
}

// fill returns the route's path with its parameters replaced from
// params, then over; it fails the test when one has no value.
func fill(t *testing.T, rt app.RouteRow, params, over map[string]string) string {
	t.Helper()
	pathParam := regexp.MustCompile(`\{([A-Za-z]+)(\.\.\.)?\}`)
	return pathParam.ReplaceAllStringFunc(rt.Path, func(m string) string {
		name := pathParam.FindStringSubmatch(m)[1]
		if v, ok := over[name]; ok {
			return v
		}
		v, ok := params[name]
		if !ok {
			t.Fatalf("route %s: no example value for the path parameter {%s}: add one to the fixture's params", rt.ID, name)
		}
		return v
	})
}

// postRoutes returns the POST rows of the route table.
func postRoutes() []app.RouteRow {
	var out []app.RouteRow
	for _, rt := range app.RouteRows() {
		if rt.Method == http.MethodPost {
			out = append(out, rt)
		}
	}
	return out
}

// snapshot describes the facts the refused and malformed requests must
// leave alone: the space, the collection and the Trash, the members and
// their roles, the teams and their members, the sharing and the invite
// links.
func (f *routesFixture) snapshot(t *testing.T, acc *service.Accounts) string {
	t.Helper()
	ctx := context.Background()
	h := f.h
	var b strings.Builder
	for _, id := range []string{f.Space, f.Gone} {
		sp := spaceOf(t, h, id)
		fmt.Fprintf(&b, "space %s %q parent=%s deleted=%t default=%s revision=%s\n", id, sp.Title, sp.Parent, sp.DeletedAt != nil, sp.DefaultLevel, sp.Revision)
	}
	cr, err := h.Svc.ChangeRequest(ctx, f.Space, f.Target)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "change request %s revision=%s\n", f.Target, cr.Revision)
	spaces, err := h.Svc.Spaces(ctx, h.Admin, h.Org, quire.Page{Limit: quire.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "spaces %d\n", len(spaces.Items))
	c, err := h.Svc.Collection(ctx, f.Collection)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "collection %q %q parent=%s default=%s\n", c.Title, c.Description, c.Parent, c.DefaultLevel)
	cols, err := h.Svc.Collections(ctx, h.Admin, h.Org, true, quire.Page{Limit: quire.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "collections %d\n", len(cols.Items))
	members, err := h.Svc.Members(ctx, h.Org, quire.MemberFilter{Order: quire.OrderAsc}, quire.Page{Limit: quire.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range members.Items {
		fmt.Fprintf(&b, "member %s role=%q disabled=%t\n", m.User.Email, m.Role, m.Disabled)
	}
	teams, err := h.Svc.Teams(ctx, h.Org, quire.TeamFilter{}, quire.Page{Limit: quire.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	for _, tm := range teams.Items {
		fmt.Fprintf(&b, "team %q members=%d\n", tm.Title, tm.Members)
	}
	page := quire.Page{Limit: quire.MaxLimit}
	sg, err := h.Svc.SpaceUserGrants(ctx, f.Space, page)
	if err != nil {
		t.Fatal(err)
	}
	cg, err := h.Svc.CollectionUserGrants(ctx, f.Collection, page)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range sg.Items {
		fmt.Fprintf(&b, "space grant %s %s\n", g.User.Email, g.Role)
	}
	for _, g := range cg.Items {
		fmt.Fprintf(&b, "collection grant %s %s\n", g.User.Email, g.Role)
	}
	admin, err := h.Store.User(ctx, h.Admin.ID)
	if err != nil {
		t.Fatal(err)
	}
	sessions, err := h.Svc.ListSessions(ctx, admin, "")
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := h.Svc.ListTokens(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "admin %q sessions=%d tokens=%d\n", admin.DisplayName, len(sessions), len(tokens))
	invites, err := acc.Invites(ctx, h.Org)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, inv := range invites {
		ids = append(ids, inv.ID+":"+string(inv.Role))
	}
	sort.Strings(ids)
	fmt.Fprintf(&b, "invites %v\n", ids)
	b.WriteString(orgFacts(t, h) + "\n")
	b.WriteString(integrationFacts(t, h, f.Integration) + "\n")
	b.WriteString(siteCustomizationFacts(t, h, f.Site) + "\n")
	providers, err := service.NewSAML(h.Svc).Providers(ctx, h.Org, page)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range providers.Items {
		fmt.Fprintf(&b, "saml provider %s %q entity=%q sso=%q certificate=%t\n", p.ID, p.Label, p.EntityID, p.SSOURL, p.Certificate != "")
	}
	trs, err := service.NewTranslations(h.Svc, nil).List(ctx, h.Org, page)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range trs.Items {
		fmt.Fprintf(&b, "translation %s %s->%s instructions=%s state=%s\n", tr.ID, tr.SourceLanguage, tr.Language, tr.Instructions, tr.State)
	}
	w := service.Commenter{User: admin, Level: quire.LevelAdmin}
	for _, sc := range []service.CommentScope{{SpaceID: f.Space}, {SpaceID: f.Space, ChangeRequest: f.Number}} {
		cs, err := h.Svc.Comments(ctx, w, sc, service.CommentListFilter{}, page)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs.Items {
			fmt.Fprintf(&b, "comment %s %s %s replies=%d reactions=%d edited=%t\n", c.Comment.ID, c.Comment.Status, c.Comment.Body, c.Comment.Replies, len(c.Reactions), c.Comment.EditedAt != nil)
			rs, err := h.Svc.Replies(ctx, w, sc, c.Comment.ID, page)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rs.Items {
				fmt.Fprintf(&b, "reply %s %s reactions=%d\n", r.Reply.ID, r.Reply.Body, len(r.Reactions))
			}
		}
	}
	cr, err = h.Svc.ChangeRequest(ctx, f.Space, f.Change)
	if err != nil {
		t.Fatal(err)
	}
	requested, err := h.Svc.RequestedReviewers(ctx, f.Space, cr.ID, quire.Page{})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "change request %q %s revision=%s description=%s requested=%d\n", cr.Subject, cr.Status, cr.Revision, cr.Description, len(requested.Items))
	b.WriteString((&siteAdmin{h: h, sites: service.NewSites(h.Svc), site: f.Site}).facts(t))
	return b.String()
}

// harmfulForm is what the refused requests send: every field a POST
// route reads, filled so that a request let through would change
// something.
func harmfulForm(f *routesFixture) url.Values {
	return url.Values{"title": {"Taken over"}, "description": {"Taken over"}, "role": {"admin"}, "default": {"admin"},
		"confirm": {"yes"}, "user": {f.Mia.ID}, "parent": {""},
		"body": {"Taken over"}, "page": {f.Page}, "reaction": {"thumbsup"}, "on": {"1"},
		"space": {f.Space}, "name": {"Taken over"}, "visibility": {"unlisted"}, "path": {"taken"}, "icon": {"x"},
		"target": {f.SiteGroup}, "place": {"before"}, "active": {"off"}, "section": {f.SiteSection},
		"sections": {f.SiteSection}, "fallback_url": {"https://taken.example/"}}
}

// TestRoutesRefused sends every POST route of the table, as the people
// below its level, and checks what the route wrapper answers: a person
// outside the organization gets 404 (it does not exist for them); a
// guest gets 404 on a space or collection (content is invisible below
// read) and 403 on the organization (which a guest sees); a reader gets
// 403 (every POST route needs comment or more, and a reader sees the
// content); a creator gets 403 on the admin routes. Nothing changes.
func TestRoutesRefused(t *testing.T) {
	t.Parallel()
	var accs accountsOf
	var ints integrationsOf
	forEachEngine(t, func(t *testing.T, h *harness) {
		acc := accs.of(h)
		f := newRoutesFixture(t, h, acc)
		before := f.snapshot(t, acc)
		params := f.params()
		form := harmfulForm(f)
		sent := 0
		for _, rt := range postRoutes() {
			path := fill(t, rt, params, f.routeParams(rt.ID))
			if rt.Public || rt.SignedIn {
				continue
			}
			sent++
			for _, c := range []struct {
				who    string
				client *http.Client
				want   int
			}{
				{"outsider", f.Outsider, http.StatusNotFound},
				{"guest", f.Guest, guestStatus(rt)},
				{"reader", f.Reader, http.StatusForbidden},
				{"creator", f.Creator, creatorStatus(rt)},
			} {
				if c.want == 0 {
					continue
				}
				status, _, body := h.postForm(t, c.client, path, form)
				if status != c.want {
					t.Errorf("%s: %s POST %s: %d, want %d\n%s", rt.ID, c.who, path, status, c.want, problemText(body))
					continue
				}
				says := "your role here does not allow this"
				if c.want == http.StatusNotFound {
					says = "There is nothing here, or you do not have access to it."
				}
				if !strings.Contains(body, says) {
					t.Errorf("%s: %s's %d page does not say %q", rt.ID, c.who, status, says)
				}
			}
		}
		if sent < 28 {
			t.Fatalf("only %d POST routes need a level: is the route table read whole?", sent)
		}
		if after := f.snapshot(t, acc); after != before {
			t.Fatalf("refused requests changed the organization:\nbefore:\n%s\nafter:\n%s", before, after)
		}
	}, accs.option(), withSAMLSettings(), ints.option(), withTranslations(t), withSites())
}

// guestStatus is what a guest gets on a route: 403 on the organization,
// which a guest sees; 404 on content, which a guest does not.
func guestStatus(rt app.RouteRow) int {
	if rt.Scope == "organization" {
		return http.StatusForbidden
	}
	return http.StatusNotFound
}

// creatorStatus is what a member with the create role gets: 403 on an
// admin route; 0 (not sent) on the routes a creator may use.
func creatorStatus(rt app.RouteRow) int {
	if rt.Level > quire.LevelCreate {
		return http.StatusForbidden
	}
	return 0
}

// editBase is a well-formed edit base that no content has.
const editBase = "00000000000000000000000000000000"

// malformed is a bad request to a route an admin may use: the form (or
// a path parameter) that is wrong, the status the app answers and what
// its page says about it.
type malformed struct {
	form   url.Values
	params map[string]string
	status int
	says   string
}

// malformedRequests holds, for every POST route needing a session,
// requests an admin may send wrong (nil for a route with no input).
// Deleting without confirming draws the confirmation page (200): that
// is the route's own answer to a missing confirm.
func malformedRequests(f *routesFixture) map[string][]malformed {
	title := func(st int) []malformed {
		return []malformed{
			{form: url.Values{"title": {"  "}}, status: st, says: "Title must not be empty."},
			{form: url.Values{"title": {strings.Repeat("x", 300)}}, status: st, says: "Title must be at most"},
		}
	}
	badRole := malformed{form: url.Values{"role": {"owner"}, "user": {f.Mia.ID}}, status: http.StatusBadRequest, says: "choose one of the listed roles"}
	noRole := malformed{form: url.Values{"user": {f.Mia.ID}}, status: http.StatusBadRequest, says: "choose one of the listed roles"}
	badDefault := malformed{form: url.Values{"default": {"everyone"}}, status: http.StatusBadRequest, says: "choose one of the listed levels"}
	nobody := malformed{form: url.Values{"role": {"read"}}, status: http.StatusBadRequest, says: "choose who to share with"}
	unknownUser := malformed{form: url.Values{"role": {"read"}, "user": {"nosuchuser"}}, status: http.StatusNotFound, says: "no member with id"}
	unknownKind := malformed{form: url.Values{"role": {"read"}}, params: map[string]string{"kind": "robots"}, status: http.StatusNotFound, says: "There is nothing here"}
	unknownPrincipal := malformed{form: url.Values{"role": {"read"}}, params: map[string]string{"principalId": "nosuchuser"}, status: http.StatusNotFound, says: "user permission not found"}
	unknownMember := malformed{params: map[string]string{"userId": "nosuchuser"}, status: http.StatusNotFound, says: "member not found"}
	emptyBody := malformed{form: url.Values{"body": {" "}}, status: http.StatusBadRequest, says: "body: must not be empty"}
	tooLong := malformed{form: url.Values{"body": {strings.Repeat("x", 10001)}}, status: http.StatusBadRequest, says: "body: must be at most 10000 characters"}
	unknownComment := malformed{form: url.Values{"body": {"Hi"}}, params: map[string]string{"commentId": "nosuchcomment"}, status: http.StatusNotFound, says: "There is nothing here"}
	unknownReply := malformed{params: map[string]string{"replyId": "nosuchreply"}, status: http.StatusNotFound, says: "There is nothing here"}
	badReaction := malformed{form: url.Values{"reaction": {"skull"}, "on": {"1"}}, status: http.StatusBadRequest, says: "reaction: choose one of the offered reactions"}
	badOn := malformed{form: url.Values{"reaction": {"heart"}, "on": {"yes"}}, status: http.StatusBadRequest, says: "on: must be 1"}
	return map[string][]malformed{
		// Translations: the forms drawn again naming the field; an
		// unknown translation; a delete's confirmation page.
		"appTranslationCreate": {
			{form: url.Values{"source": {""}, "source_language": {"en"}, "language": {"fr"}}, status: http.StatusUnprocessableEntity, says: "Source space must be chosen."},
			{form: url.Values{"source": {f.Space}, "source_language": {"en"}, "language": {"tlh"}}, status: http.StatusUnprocessableEntity, says: "Language must be one of the listed languages."},
			{form: url.Values{"source": {f.Space}, "source_language": {"en"}, "language": {"fr"}, "instructions": {strings.Repeat("x", 10001)}}, status: http.StatusUnprocessableEntity, says: "Instructions must be at most 10000 characters"},
		},
		"appTranslationUpdate": {
			{form: url.Values{"instructions": {strings.Repeat("x", 10001)}}, status: http.StatusUnprocessableEntity, says: "Instructions must be at most 10000 characters"},
			{form: url.Values{"instructions": {"x"}}, params: map[string]string{"translationId": "nosuchtranslation"}, status: http.StatusNotFound, says: "There is nothing here"},
		},
		"appTranslationRun": {{params: map[string]string{"translationId": "nosuchtranslation"}, status: http.StatusNotFound, says: "There is nothing here"}},
		"appTranslationDelete": {
			{form: url.Values{}, status: http.StatusOK, says: "Delete the translation “Install in German”?"},
			{form: url.Values{"confirm": {"yes"}}, params: map[string]string{"translationId": "nosuchtranslation"}, status: http.StatusNotFound, says: "There is nothing here"},
		},
		"appCreateInvite": {
			{form: url.Values{"role": {"owner"}}, status: http.StatusBadRequest, says: "Role must be one of"},
		},
		"appRevokeInvite": {{params: map[string]string{"inviteId": "nosuchinvite"}, status: http.StatusNotFound, says: "There is nothing here"}},
		// The organization's settings: the form drawn again naming the
		// field; an unknown provider; a delete's confirmation page.
		"appOrgSettingsSave": {
			{form: url.Values{"title": {"  "}, "default_role": {"read"}}, status: http.StatusUnprocessableEntity, says: "Title must not be empty."},
			{form: url.Values{"title": {"Acme"}, "email_domains": {"acme.test\nnot a domain"}}, status: http.StatusUnprocessableEntity, says: "Email domains &#34;not a domain&#34; is not a domain name."},
			{form: url.Values{"title": {"Acme"}, "default_role": {"owner"}}, status: http.StatusUnprocessableEntity, says: "Default role choose one of the listed roles."},
			{form: url.Values{"title": {"Acme"}, "logo": {"logo.png"}}, status: http.StatusUnprocessableEntity, says: "Logo URL must be an absolute http or https URL."},
		},
		// A site's customization: the form drawn again naming the
		// control; the preview says why inside its frame.
		"appSiteCustomizeSave":      siteCustomizeMalformed(),
		"appSiteSpaceCustomizeSave": siteCustomizeMalformed(),
		"appSiteCustomizePreview": {
			{form: customizeFormWith("styling.primaryColor.light", "#12"), status: http.StatusUnprocessableEntity, says: "Primary color (light) must be a hex color such as #346DDB."},
			{form: customizeFormWith("title", "Docs"), params: map[string]string{"siteId": "nosuchsite"}, status: http.StatusNotFound, says: "Page not found"},
		},
		"appOrgMergeRulesSave": {{form: url.Values{"rules": {"require_at_least_one_review", "bogus"}}, status: http.StatusUnprocessableEntity, says: "Merge rules choose among the listed rules."}},
		"appOrgSAMLCreate": {
			{form: url.Values{"label": {"Okta 2"}, "certificate": {"junk"}}, status: http.StatusUnprocessableEntity, says: "Certificate is not an X.509 certificate"},
			{form: url.Values{"label": {" "}}, status: http.StatusUnprocessableEntity, says: "Label must not be empty."},
			{form: url.Values{"label": {"Okta 2"}, "sso_url": {"ftp://idp.test/sso"}}, status: http.StatusUnprocessableEntity, says: "SSO URL must be an absolute http or https URL."},
		},
		"appOrgSAMLUpdate": {
			{form: url.Values{"label": {"Okta"}, "certificate": {"-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n"}}, status: http.StatusUnprocessableEntity, says: "Certificate is not valid PEM."},
			{form: url.Values{"label": {"Okta"}}, params: map[string]string{"samlProviderId": "nosuchprovider"}, status: http.StatusNotFound, says: "There is nothing here"},
		},
		"appOrgSAMLDelete": {
			{form: url.Values{}, status: http.StatusOK, says: "Delete the SAML provider “Okta”?"},
			{form: url.Values{"confirm": {"yes"}}, params: map[string]string{"samlProviderId": "nosuchprovider"}, status: http.StatusNotFound, says: "There is nothing here"},
		},
		"appOrgSSOTurnOff": {
			{form: url.Values{}, status: http.StatusOK, says: "Turn off single sign-on?"},
			{form: url.Values{"confirm": {"maybe"}}, status: http.StatusOK, says: "Turn off single sign-on?"},
		},
		"appCollectionUpdate": title(http.StatusUnprocessableEntity),
		"appCollectionMove": {
			{form: url.Values{"parent": {"nosuchcollection"}}, status: http.StatusUnprocessableEntity, says: "Destination collection"},
			{form: url.Values{"parent": {f.Collection}}, status: http.StatusUnprocessableEntity, says: "Destination a collection cannot be moved into itself."},
		},
		"appCollectionDelete": {{form: url.Values{}, status: http.StatusOK, says: "Delete the collection"}},
		"appCollectionCreate": title(http.StatusUnprocessableEntity),
		"appSpaceCreate":      title(http.StatusUnprocessableEntity),
		"appSpaceRename":      title(http.StatusUnprocessableEntity),
		"appSpaceMove":        {{form: url.Values{"parent": {"nosuchcollection"}}, status: http.StatusUnprocessableEntity, says: "Destination collection"}},
		"appSpaceDelete":      {{form: url.Values{}, status: http.StatusOK, says: "Delete the space"}},
		"appSpaceRestore":     {{params: map[string]string{"spaceId": f.Space}, status: http.StatusBadRequest, says: "the space is not deleted"}},
		"appMemberRole": {
			{form: url.Values{"role": {"owner"}}, status: http.StatusBadRequest, says: "choose one of the listed roles"},
			unknownMember,
		},
		"appMemberDisable":    {unknownMember},
		"appMemberEnable":     {unknownMember},
		"appMemberRemove":     {unknownMember},
		"appTeamCreate":       {{form: url.Values{"title": {""}}, status: http.StatusBadRequest, says: "title: must not be empty"}},
		"appTeamRename":       {{form: url.Values{"title": {""}}, status: http.StatusBadRequest, says: "title: must not be empty"}},
		"appTeamDelete":       {{params: map[string]string{"teamId": "nosuchteam"}, status: http.StatusNotFound, says: "There is nothing here"}},
		"appTeamMemberAdd":    {{form: url.Values{"user": {"nosuchuser"}}, status: http.StatusBadRequest, says: "is not a member of the organization"}, {form: url.Values{}, status: http.StatusBadRequest, says: "user: choose a member to add"}},
		"appTeamMemberRemove": {{params: map[string]string{"userId": f.h.Admin.ID}, status: http.StatusBadRequest, says: "they are not in the team"}},

		"appSpaceShare":        {badRole, noRole, nobody, unknownUser},
		"appSpaceShareDefault": {badDefault},
		"appSpaceGitImport":    gitMalformed(),
		"appSpaceGitExport":    gitMalformed(),
		"appSpaceImportContent": {
			{form: url.Values{"url": {""}, "source": {"markdown"}, "into": {"space"}}, status: http.StatusUnprocessableEntity, says: "URL must not be empty."},
			{form: url.Values{"url": {"file:///etc/passwd"}, "source": {"markdown"}, "into": {"space"}}, status: http.StatusUnprocessableEntity, says: "URL must be an http:// or https:// address."},
			{form: url.Values{"url": {"https://docs.example/"}, "source": {"notion"}, "into": {"space"}}, status: http.StatusUnprocessableEntity, says: "Kind of content choose one of the listed kinds of content."},
		},
		"appSpaceImportUpload": {
			{form: url.Values{"into": {"space"}}, status: http.StatusUnprocessableEntity, says: "File is missing: choose a Markdown, HTML or zip file."},
			{form: url.Values{}, status: http.StatusUnprocessableEntity, says: "File is missing: choose a Markdown, HTML or zip file."},
		},
		"appSpaceShareChange":       {badRole, unknownKind, unknownPrincipal},
		"appSpaceShareRemove":       {unknownKind, unknownPrincipal},
		"appCollectionShare":        {badRole, noRole, nobody, unknownUser},
		"appCollectionShareDefault": {badDefault},
		"appCollectionShareChange":  {badRole, unknownKind, unknownPrincipal},
		"appCollectionShareRemove":  {unknownKind, unknownPrincipal},

		// Comments, on the space's content and on a change request's.
		"appCommentPost":          commentPost(f),
		"appCommentReply":         {emptyBody, unknownComment},
		"appCommentEdit":          {emptyBody, tooLong},
		"appCommentDelete":        {unknownComment},
		"appCommentResolve":       {unknownComment},
		"appCommentReopen":        {unknownComment},
		"appCommentReact":         {badReaction, badOn},
		"appCommentReplyEdit":     {emptyBody},
		"appCommentReplyDelete":   {unknownReply},
		"appCommentReplyReact":    {badReaction},
		"appCRCommentPost":        commentPost(f),
		"appCRCommentReply":       {emptyBody, unknownComment},
		"appCRCommentEdit":        {emptyBody, tooLong},
		"appCRCommentDelete":      {unknownComment},
		"appCRCommentResolve":     {unknownComment},
		"appCRCommentReopen":      {unknownComment},
		"appCRCommentReact":       {badReaction, badOn},
		"appCRCommentReplyEdit":   {emptyBody},
		"appCRCommentReplyDelete": {{params: map[string]string{"commentId": f.CRComment, "replyId": "nosuchreply"}, status: http.StatusNotFound, says: "There is nothing here"}},
		"appCRCommentReplyReact":  {badReaction},
		// The change request page's forms; the admin wrote the change
		// request, so cannot review it.
		"appChangeRequestDetails": {{form: url.Values{"subject": {strings.Repeat("x", 101)}}, status: http.StatusUnprocessableEntity, says: "subject: must be at most 100 characters"}},
		"appChangeRequestStatus": {
			{form: url.Values{"status": {"merged"}}, status: http.StatusBadRequest, says: "status: must be draft, open or archived"},
			{form: url.Values{}, status: http.StatusBadRequest, says: "status: must be draft, open or archived"},
		},
		"appChangeRequestUpdateFromMain": {{params: map[string]string{"number": "999"}, status: http.StatusNotFound, says: "There is nothing here"}},
		"appChangeRequestReviewers": {
			{form: url.Values{}, status: http.StatusBadRequest, says: "reviewer: choose a person or a team"},
			{form: url.Values{"reviewer": {"robot:x"}}, status: http.StatusBadRequest, says: "reviewer: choose a person or a team"},
			{form: url.Values{"reviewer": {"user:nosuchuser"}}, status: http.StatusBadRequest, says: "reviewer: no such user"},
		},
		"appChangeRequestReviewerRemove": {{status: http.StatusNotFound, says: "There is nothing here"}},
		"appChangeRequestReview": {
			{form: url.Values{"verdict": {"maybe"}}, status: http.StatusBadRequest, says: "verdict: choose Approve or Request changes"},
			{form: url.Values{"verdict": {"approve"}, "comment": {strings.Repeat("x", 70<<10)}}, status: http.StatusBadRequest, says: "comment: must be at most 64 KB"},
		},
		"appChangeRequestMerge": {{params: map[string]string{"number": "999"}, status: http.StatusNotFound, says: "There is nothing here"}},

		// The editor: bad input is refused before anything is written,
		// naming its field; a page that is not there names the page.
		"appEdit": {{form: url.Values{"path": {"../../o"}}, status: http.StatusBadRequest, says: "path: not a page path"}},
		"appEditBlockSave": {
			{form: url.Values{"base": {"nope"}, "markdown": {"x"}}, status: http.StatusBadRequest, says: "base: not the version"},
			{form: url.Values{"base": {editBase}, "blocks": {"0"}}, status: http.StatusBadRequest, says: "blocks: give a number"},
			{form: url.Values{"base": {editBase}, "markdown": {"x"}}, status: http.StatusBadRequest, says: "pageId: there is no such page"},
			{form: url.Values{"base": {editBase}}, params: map[string]string{"key": "a b"}, status: http.StatusBadRequest, says: "key: not a block key"},
			{form: url.Values{"base": {editBase}}, params: map[string]string{"target": "0"}, status: http.StatusNotFound, says: "There is nothing here"},
		},
		"appEditBlockDelete":  {{form: url.Values{"base": {"nope"}}, status: http.StatusBadRequest, says: "base: not the version"}},
		"appEditBlockInsert":  {{form: url.Values{"markdown": {" "}}, status: http.StatusBadRequest, says: "markdown: write the block to add"}},
		"appEditMarkdownSave": {{form: url.Values{"markdown": {"x"}}, status: http.StatusBadRequest, says: "base: not the version"}},
		"appEditPreview":      {{form: url.Values{"markdown": {"x"}}, status: http.StatusNotFound, says: "There is nothing here"}},
		// Page operations on the change request's content.
		"appPageCreate": {
			{form: url.Values{"title": {"  "}}, status: http.StatusUnprocessableEntity, says: "Title must not be empty."},
			{form: url.Values{"title": {"X"}, "parent": {"nosuchpage"}}, status: http.StatusUnprocessableEntity, says: "Parent names no page"},
		},
		"appPageRename": {
			{form: url.Values{"title": {""}}, status: http.StatusUnprocessableEntity, says: "Title must not be empty."},
			{form: url.Values{"title": {"X"}}, params: map[string]string{"pageId": "nosuchpage"}, status: http.StatusNotFound, says: "There is nothing here"},
		},
		"appPageDuplicate": {{params: map[string]string{"pageId": "nosuchpage"}, status: http.StatusNotFound, says: "There is nothing here"}},
		"appPageMove": {
			{form: url.Values{"target": {f.Intro}, "place": {"inside"}}, status: http.StatusUnprocessableEntity, says: "Target a page cannot move into itself"},
			{form: url.Values{"parent": {""}, "position": {"middle"}}, status: http.StatusUnprocessableEntity, says: "Position must be first or last."},
		},
		"appPageDelete": {{form: url.Values{}, status: http.StatusOK, says: "Delete “Intro”?"}},
		"appPageSettingsSave": {
			{form: url.Values{"title": {"Intro"}, "width": {"huge"}}, status: http.StatusUnprocessableEntity, says: "Width must be default (normal) or wide."},
			{form: url.Values{"title": {"Intro"}, "width": {"wide"}, "cover": {"nosuchfile"}}, status: http.StatusUnprocessableEntity, says: "Cover file"},
		},
		// The Markdown tools of the editor (JSON answers).
		"appEditFiles": {
			{form: url.Values{"file": {"not a file"}}, status: http.StatusBadRequest, says: "file: send the file as multipart/form-data"},
			{params: map[string]string{"target": "nosuchtarget"}, status: http.StatusNotFound, says: "There is nothing here"},
		},
		"appEditConvert": {
			{form: url.Values{}, status: http.StatusBadRequest, says: "html: paste some HTML to convert"},
			{form: url.Values{"html": {"<p>x</p>"}}, params: map[string]string{"target": "999"}, status: http.StatusNotFound, says: "change request not found"},
		},

		// OpenAPI specifications (openapi_forms.go): the add form and the
		// specification's forms drawn again naming the field; unknown
		// specifications; a delete's confirmation page.
		"appOpenAPISpecAdd": {
			{form: url.Values{"slug": {" "}, "url": {"https://api.example/openapi.yaml"}}, status: http.StatusUnprocessableEntity, says: "Slug must not be empty."},
			{form: url.Values{"slug": {"Pet Store"}, "url": {"https://api.example/openapi.yaml"}}, status: http.StatusUnprocessableEntity, says: "Slug must be lowercase letters and digits"},
			{form: url.Values{"slug": {"zoo"}, "url": {"ftp://api.example/openapi.yaml"}}, status: http.StatusUnprocessableEntity, says: "URL must be an http or https URL."},
			{form: url.Values{"slug": {"zoo"}}, status: http.StatusUnprocessableEntity, says: "Source give a URL or choose a file."},
			{form: url.Values{"slug": {"petstore"}, "url": {"https://api.example/openapi.yaml"}}, status: http.StatusConflict, says: "Slug is taken by another specification"},
		},
		"appOpenAPISpecVisibility": {
			{form: url.Values{"visibility": {"secret"}}, status: http.StatusUnprocessableEntity, says: "Visibility choose private or public."},
			{form: url.Values{"visibility": {"public"}}, params: map[string]string{"specSlug": "nosuch"}, status: http.StatusNotFound, says: "There is nothing here"},
		},
		"appOpenAPISpecRefresh": {
			{form: url.Values{}, status: http.StatusUnprocessableEntity, says: "Source is an uploaded file: there is no URL to fetch again."},
			{params: map[string]string{"specSlug": "nosuch"}, status: http.StatusNotFound, says: "There is nothing here"},
		},
		"appOpenAPISpecDelete": {
			{form: url.Values{}, status: http.StatusOK, says: "Delete the specification “petstore”?"},
			{form: url.Values{"confirm": {"yes"}}, params: map[string]string{"specSlug": "nosuch"}, status: http.StatusNotFound, says: "There is nothing here"},
		},

		// The account routes any signed-in person may use.
		"appPassword":             {{form: url.Values{"current": {"wrong"}, "password": {"a new password"}, "confirm": {"another one"}}, status: http.StatusBadRequest, says: "does not match the new password"}},
		"appJoinAccept":           {{params: map[string]string{"inviteId": "nosuchinvite"}, status: http.StatusNotFound, says: "this invite link is not valid"}},
		"appAccountProfile":       {{form: url.Values{"displayName": {"  "}}, status: http.StatusUnprocessableEntity, says: "Display name"}},
		"appAccountSessionRevoke": {{status: http.StatusNotFound, says: "There is nothing here"}},
		"appAccountTokenCreate":   {{form: url.Values{"name": {""}}, status: http.StatusUnprocessableEntity, says: "Name "}},
		"appAccountTokenRevoke":   {{status: http.StatusNotFound, says: "There is nothing here"}},
		// History and conflicts: an unknown revision, a change request
		// that is not there, choices without the revisions they were made
		// on.
		"appRevisionRestore":     {{status: http.StatusBadRequest, says: "revision: revision &#34;nosuchrevision&#34; does not exist in this space"}},
		"appRevisionRestorePage": {{form: url.Values{"path": {""}}, status: http.StatusBadRequest, says: "revision: revision &#34;nosuchrevision&#34; does not exist in this space"}},
		"appChangeRequestConflictsResolve": {
			{form: url.Values{}, status: http.StatusBadRequest, says: "main: give main’s revision"},
			{form: url.Values{"main": {"x"}, "revision": {"y"}}, status: http.StatusNotFound, says: "There is nothing here"},
			{params: map[string]string{"number": "01"}, status: http.StatusNotFound, says: "There is nothing here"},
		},
		"appAccountNotifications": {
			{form: url.Values{"kinds": {"bogus"}, "inbox.bogus": {"on"}}, status: http.StatusBadRequest, says: "unknown notification kind"},
			{form: url.Values{}, status: http.StatusBadRequest, says: "at least one notification kind"},
		},
		"appInboxRead": {
			{params: map[string]string{"notificationId": "abc"}, status: http.StatusBadRequest, says: "must be a notification id"},
			{status: http.StatusNotFound, says: "There is nothing here"},
		},
		// Its only input is the session it comes with.
		"appInboxReadAll": nil,
		// Site administration: the page drawn again naming the field, an
		// unknown item, or a deletion's confirmation page.
		"appSiteCreate": {
			{form: url.Values{"title": {" "}}, status: http.StatusUnprocessableEntity, says: "Title: must not be empty."},
			{form: url.Values{"title": {"Docs"}, "spaces": {"nosuchspace"}}, status: http.StatusUnprocessableEntity, says: "Space: space &#34;nosuchspace&#34; does not exist"},
		},
		"appSiteUpdate": {
			{form: url.Values{"title": {"Portal"}, "visibility": {"private"}}, status: http.StatusUnprocessableEntity, says: "Visibility: choose one of the listed visibilities."},
			{form: url.Values{"title": {""}, "visibility": {"public"}}, status: http.StatusUnprocessableEntity, says: "Title: must not be empty."},
		},
		"appSitePublish":   {{params: map[string]string{"siteId": "nosuchsite"}, status: http.StatusNotFound, says: "There is nothing here"}},
		"appSiteUnpublish": {{params: map[string]string{"siteId": "nosuchsite"}, status: http.StatusNotFound, says: "There is nothing here"}},
		"appSiteDelete": {
			{form: url.Values{}, status: http.StatusOK, says: "Delete the site"},
			{params: map[string]string{"siteId": "nosuchsite"}, form: url.Values{"confirm": {"yes"}}, status: http.StatusNotFound, says: "There is nothing here"},
		},
		"appSiteItemMove": {
			{form: url.Values{"target": {f.SiteGroup}, "place": {"above"}}, status: http.StatusBadRequest, says: "place: must be before, after or inside"},
			{form: url.Values{"target": {"nosuchitem"}, "place": {"before"}}, status: http.StatusBadRequest, says: "target: choose an item of this site"},
			{params: map[string]string{"itemId": "nosuchitem"}, form: url.Values{"target": {f.SiteGroup}, "place": {"before"}}, status: http.StatusNotFound, says: "There is nothing here"},
		},
		"appSiteSectionAdd": {
			{form: url.Values{"space": {""}}, status: http.StatusUnprocessableEntity, says: "Space: choose a space."},
			{form: url.Values{"space": {f.Space}, "title": {"G"}}, status: http.StatusUnprocessableEntity, says: "Title: a section title has 2 to 128 characters."},
		},
		"appSiteSectionUpdate": {
			{form: url.Values{"title": {"Guides"}, "path": {"a/b"}}, status: http.StatusUnprocessableEntity, says: "Path: a path is one segment of an address"},
			{form: url.Values{"title": {"Guides"}, "path": {"guides"}, "condition": {"visitor.claims.isBeta"}}, status: http.StatusUnprocessableEntity, says: "Condition: line 1, column"},
			{params: map[string]string{"siteSectionId": "nosuchsection"}, form: url.Values{"title": {"Guides"}, "path": {"guides"}}, status: http.StatusNotFound, says: "There is nothing here"},
		},
		"appSiteSectionDelete": {
			{form: url.Values{}, status: http.StatusOK, says: "Delete the section"},
			{params: map[string]string{"siteSectionId": "nosuchsection"}, status: http.StatusNotFound, says: "There is nothing here"},
		},
		"appSiteGroupAdd": {
			{form: url.Values{"title": {" "}}, status: http.StatusUnprocessableEntity, says: "Title: must not be empty."},
			{form: url.Values{"title": {"More"}, "sections": {"nosuchsection"}}, status: http.StatusUnprocessableEntity, says: "Section: section &#34;nosuchsection&#34; is not in this site."},
		},
		"appSiteGroupUpdate": {
			{form: url.Values{"title": {""}}, status: http.StatusUnprocessableEntity, says: "Title: must not be empty."},
			{form: url.Values{"title": {"Reference"}, "icon": {strings.Repeat("i", 51)}}, status: http.StatusUnprocessableEntity, says: "Icon: must be at most 50 characters."},
		},
		"appSiteGroupDelete": {{params: map[string]string{"siteSectionGroupId": "nosuchgroup"}, status: http.StatusNotFound, says: "There is nothing here"}},
		"appSiteGroupSectionAdd": {
			{form: url.Values{"section": {""}}, status: http.StatusUnprocessableEntity, says: "Section: choose a section."},
			{form: url.Values{"section": {"nosuchsection"}}, status: http.StatusUnprocessableEntity, says: "Section: section &#34;nosuchsection&#34; is not in this site."},
		},
		// The section is not in the group.
		"appSiteGroupSectionRemove": {{status: http.StatusNotFound, says: "There is nothing here"}},
		"appSiteSpaceAdd": {
			{form: url.Values{"space": {""}}, status: http.StatusUnprocessableEntity, says: "Space: choose a space."},
			{form: url.Values{"space": {f.Space}, "section": {"nosuchsection"}}, status: http.StatusUnprocessableEntity, says: "Section: section &#34;nosuchsection&#34; is not in this site."},
		},
		"appSiteSpaceUpdate": {
			{form: url.Values{"path": {"a?b"}}, status: http.StatusUnprocessableEntity, says: "Path: a path is one segment of an address"},
			{form: url.Values{"path": {" "}}, status: http.StatusUnprocessableEntity, says: "Path: must not be empty."},
		},
		"appSiteSpaceRemove":     {{params: map[string]string{"siteSpaceId": "nosuchsitespace"}, status: http.StatusNotFound, says: "There is nothing here"}},
		"appSiteShareLinkCreate": {{form: url.Values{"name": {" "}}, status: http.StatusUnprocessableEntity, says: "Name: must not be empty."}},
		"appSiteShareLinkActive": {{form: url.Values{"active": {"maybe"}}, status: http.StatusBadRequest, says: "active: must be on or off"}},
		"appSiteShareLinkDelete": {{params: map[string]string{"shareLinkId": "nosuchlink"}, status: http.StatusNotFound, says: "There is nothing here"}},
		"appSiteVisitorAuth":     {{form: url.Values{"fallback_url": {"nope"}}, status: http.StatusUnprocessableEntity, says: "Fallback URL: must be an absolute http or https URL."}},
		"appSiteKeyRegenerate":   {{form: url.Values{}, status: http.StatusOK, says: "Make a new signing key"}},
		// Its only input is the session it comes with: nothing to get
		// wrong.
		"appAccountSessionsRevokeOthers": nil,

		// Integrations: installing one unknown or installed already; its
		// configurations refused naming the field; what it covers
		// refused naming the field; uninstalling without confirming.
		"appIntegrationInstall": {
			{params: map[string]string{"integrationName": "nosuchintegration"}, status: http.StatusNotFound, says: "There is nothing here"},
			{status: http.StatusConflict, says: "the integration is already installed in this organization"},
		},
		"appIntegrationConfigSave": {
			{form: url.Values{"config.channel": {"chat"}}, status: http.StatusUnprocessableEntity, says: "API key is required."},
			{form: url.Values{"config.apiKey": {"k"}, "config.channel": {"fax"}}, status: http.StatusUnprocessableEntity, says: "Channel: value must be one of"},
			{form: url.Values{"config.apiKey": {"k"}, "config.channel": {"chat"}, "config.batchSize": {"many"}}, status: http.StatusUnprocessableEntity, says: "Batch size: must be a number."},
			{form: url.Values{"config.apiKey": {"k"}, "config.channel": {"chat"}, "config.testNote": {"{"}}, status: http.StatusUnprocessableEntity, says: "Test note: must be valid JSON."},
			{params: map[string]string{"integrationName": "nosuchintegration"}, status: http.StatusNotFound, says: "There is nothing here"},
		},
		"appIntegrationSpaceConfigSave": {
			{form: url.Values{"config.path": {" "}}, status: http.StatusUnprocessableEntity, says: "Folder is required."},
			{form: url.Values{"config.path": {"x"}}, params: map[string]string{"spaceId": f.Gone}, status: http.StatusNotFound, says: "There is nothing here"},
		},
		"appIntegrationSiteConfigSave": {
			{form: url.Values{"configuration": {"[1, 2]"}}, status: http.StatusUnprocessableEntity, says: "Configuration: must be a JSON object."},
			{form: url.Values{"configuration": {"{}"}}, params: map[string]string{"siteId": "nosuchsite"}, status: http.StatusNotFound, says: "There is nothing here"},
		},
		"appIntegrationCoverageSave": {
			{form: url.Values{"spaces": {"most"}, "sites": {"all"}}, status: http.StatusUnprocessableEntity, says: "Spaces choose every space or the spaces checked."},
			{form: url.Values{"spaces": {"selected"}, "sites": {"selected"}, "space": {f.Gone}}, status: http.StatusUnprocessableEntity, says: "Spaces checked names no space of the organization."},
			{form: url.Values{"spaces": {"selected"}, "sites": {"selected"}, "site": {"nosuchsite"}}, status: http.StatusUnprocessableEntity, says: "Sites checked names no site of the organization."},
		},
		"appIntegrationUninstall": {
			{form: url.Values{}, status: http.StatusOK, says: "Uninstall Release Notes?"},
			{form: url.Values{"confirm": {"yes"}}, params: map[string]string{"integrationName": "nosuchintegration"}, status: http.StatusNotFound, says: "There is nothing here"},
		},
	}
}

// TestRoutesMalformed sends, as the admin, malformed requests to every
// POST route needing a session:
// each answers its 4xx (or a delete's confirmation page), names the
// field or the problem, and changes nothing. A route missing from the
// table of malformed requests fails the test.
func TestRoutesMalformed(t *testing.T) {
	t.Parallel()
	var (
		accs accountsOf
		ints integrationsOf
		oas  openAPIOf
	)
	forEachEngine(t, func(t *testing.T, h *harness) {
		acc := accs.of(h)
		f := newRoutesFixture(t, h, acc)
		openAPIRoutesFixture(t, h, oas.of(h))
		admin := h.client(t, h.signIn(t, h.Admin))
		before := f.snapshot(t, acc)
		params := f.params()
		cases := malformedRequests(f)
		seen := map[string]bool{}
		for _, rt := range postRoutes() {
			if rt.Public {
				continue
			}
			seen[rt.ID] = true
			list, ok := cases[rt.ID]
			if !ok {
				t.Errorf("route %s has no malformed request: add one to malformedRequests", rt.ID)
				continue
			}
			for i, m := range list {
				over := f.routeParams(rt.ID)
				if m.params != nil {
					over = m.params
				}
				path := fill(t, rt, params, over)
				status, loc, body := h.postForm(t, admin, path, m.form)
				if status != m.status {
					t.Errorf("%s #%d: POST %s %v: %d (to %q), want %d\n%s", rt.ID, i, path, m.form, status, loc, m.status, problemText(body))
					continue
				}
				if !strings.Contains(body, m.says) {
					t.Errorf("%s #%d: the %d page does not say %q\n%s", rt.ID, i, status, m.says, problemText(body))
				}
			}
		}
		for id := range cases {
			if !seen[id] {
				t.Errorf("malformedRequests names %s, not a POST route needing a session", id)
			}
		}
		if after := f.snapshot(t, acc); after != before {
			t.Fatalf("malformed requests changed the organization:\nbefore:\n%s\nafter:\n%s", before, after)
		}
	}, accs.option(), withSAMLSettings(), ints.option(), withTranslations(t), withSites(), oas.option())
}

// siteCustomizeMalformed are malformed posts of the site customization
// form, saved from the site's page or a site space's: each a valid form
// but for one control.
func siteCustomizeMalformed() []malformed {
	return []malformed{
		{form: customizeFormWith("styling.primaryColor.light", "#12"), status: http.StatusUnprocessableEntity, says: "Primary color (light) must be a hex color such as #346DDB."},
		{form: customizeFormWith("title", strings.Repeat("x", 129)), status: http.StatusUnprocessableEntity, says: "Title must be at most 128 characters."},
		{form: customizeFormWith("styling.theme", "neon"), status: http.StatusUnprocessableEntity, says: "Theme must be one of clean, muted, bold, gradient."},
		{form: customizeFormWith("privacyPolicy.url", "https://x.example/"+strings.Repeat("p", 2048)), status: http.StatusUnprocessableEntity, says: "Privacy policy URL must be at most 2048 characters."},
		{form: customizeFormWith("title", "Docs"), params: map[string]string{"siteId": "nosuchsite"}, status: http.StatusNotFound, says: "There is nothing here"},
	}
}

// gitMalformed are the malformed posts of the Git Sync form, to import
// or export alike.
func gitMalformed() []malformed {
	return []malformed{
		{form: url.Values{"url": {""}, "branch": {"main"}}, status: http.StatusUnprocessableEntity, says: "Repository URL must not be empty."},
		{form: url.Values{"url": {"file:///srv/docs.git"}, "branch": {"main"}}, status: http.StatusUnprocessableEntity, says: "Repository URL must be an https://, http:// or ssh:// address"},
		{form: url.Values{"url": {"https://git.example/docs.git"}, "branch": {strings.Repeat("b", 300)}}, status: http.StatusUnprocessableEntity, says: "Branch must be at most 244 characters."},
	}
}

// commentPost are the malformed posts of a new comment.
func commentPost(f *routesFixture) []malformed {
	return []malformed{
		{form: url.Values{"page": {f.Page}, "body": {""}}, status: http.StatusBadRequest, says: "body: must not be empty"},
		{form: url.Values{"page": {f.Page}, "node": {"nosuchblock"}, "body": {"Hi"}}, status: http.StatusBadRequest, says: "node: no block"},
		{form: url.Values{"page": {"nosuchpage"}, "body": {"Hi"}}, status: http.StatusBadRequest, says: "page: no page"},
		{form: url.Values{"node": {"nosuchblock"}, "body": {"Hi"}}, status: http.StatusBadRequest, says: "page: required with node"},
	}
}

// problemText returns the text of a page's alerts, or of its main part
// when it has none, for a failing test to show.
func problemText(body string) string {
	var out []string
	for _, m := range regexp.MustCompile(`(?s)role="alert"[^>]*>(.*?)</`).FindAllStringSubmatch(body, -1) {
		out = append(out, strings.TrimSpace(m[1]))
	}
	if len(out) == 0 {
		if i := strings.Index(body, "<main"); i >= 0 {
			body = body[i:]
		}
		text := regexp.MustCompile(`(?s)<[^>]*>`).ReplaceAllString(body, " ")
		text = strings.Join(strings.Fields(text), " ")
		if len(text) > 300 {
			text = text[:300]
		}
		return text
	}
	return strings.Join(out, " | ")
}
