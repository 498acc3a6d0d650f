package app

import (
	"net/http"
	"sort"

	"quire/internal/quire"
	"quire/internal/service"
)

// Shell is what the frame around every signed-in page shows: who is
// signed in, the organization being looked at and the others to switch
// to, and its collections and spaces as a tree.
type Shell struct {
	User *quire.User
	// Org is the organization being looked at, nil on pages outside one;
	// Level is the caller's level in it.
	Org   *quire.Organization
	Level quire.Level
	// Orgs are the caller's organizations, for the switcher.
	Orgs []service.OrgView
	// Tree is the organization's collections and spaces the caller sees,
	// in the API's order and nesting.
	Tree []*TreeNode
	// Section names the navigation entry of the page, marked current;
	// SpaceID the space being looked at, marked in the tree.
	Section string
	SpaceID string
	// ChangeRequest is the number of the change request the page shows,
	// if any: its activity is what the page's live updates follow
	// (live.js); a page of main content follows merges and its comments.
	ChangeRequest string
	// Title is the page's own title, for the document title.
	Title string
	// SearchURL is where the header's search box searches (its results
	// page; the same address with ".json" answers as you type): the
	// organization's search when empty.
	SearchURL string
	// Query is the query the page answers, shown in the search box.
	Query string
	// Notice confirms the change the page was redirected after.
	Notice string
	// Unread counts the person's unread notifications, for the header.
	Unread int
}

// TreeNode is a collection or a space in the sidebar tree.
type TreeNode struct {
	ID    string
	Title string
	Emoji string
	Space bool
	// Level is the caller's level on the node.
	Level    quire.Level
	Children []*TreeNode
	position string
}

// shell builds the frame for a page of the organization orgID, or outside
// any organization when orgID is "", with the organization's sidebar tree.
func (a *App) shell(r *http.Request, orgID string) (*Shell, error) {
	sh, err := a.frame(r, orgID)
	if err != nil || orgID == "" {
		return sh, err
	}
	if sh.Tree, err = a.tree(r, orgID); err != nil {
		return nil, err
	}
	return sh, nil
}

// frame builds the frame for a page of the organization orgID without
// the sidebar tree, for pages whose sidebar is their own (a space's).
func (a *App) frame(r *http.Request, orgID string) (*Shell, error) {
	ctx := r.Context()
	u := userFrom(ctx)
	sh := &Shell{User: u, Notice: noticeText(r.URL.Query().Get(noticeParam))}
	orgs, err := a.svc.Organizations(ctx, u, quire.Page{Limit: quire.MaxLimit})
	if err != nil {
		return nil, err
	}
	sh.Orgs = orgs.Items
	// One indexed count; a failure leaves the count out, not the page.
	if n, err := a.svc.UnreadNotifications(ctx, u); err == nil {
		sh.Unread = n
	}
	if orgID == "" {
		return sh, nil
	}
	for _, o := range orgs.Items {
		if o.Org.ID == orgID {
			sh.Org, sh.Level = o.Org, o.Level
		}
	}
	if sh.Org == nil {
		// A guest sees the organization without being listed in it.
		o, err := a.svc.Organization(ctx, orgID)
		if err != nil {
			return nil, err
		}
		sh.Org, sh.Level = o, levelFrom(ctx)
	}
	return sh, nil
}

// tree loads the organization's collections and spaces the caller sees
// and nests them as the API does: by parent collection, ordered by
// position among siblings.
func (a *App) tree(r *http.Request, orgID string) ([]*TreeNode, error) {
	ctx := r.Context()
	u := userFrom(ctx)
	nodes := map[string]*TreeNode{}
	var all []*TreeNode
	parents := map[*TreeNode]string{}
	for p := (quire.Page{Limit: quire.MaxLimit}); ; {
		l, err := a.svc.Collections(ctx, u, orgID, true, p)
		if err != nil {
			return nil, err
		}
		for _, c := range l.Items {
			n := &TreeNode{ID: c.Collection.ID, Title: c.Collection.Title, Level: c.Level, position: c.Collection.Position}
			nodes[n.ID] = n
			parents[n] = c.Collection.Parent
			all = append(all, n)
		}
		if l.Next == "" {
			break
		}
		p.Cursor = l.Next
	}
	for p := (quire.Page{Limit: quire.MaxLimit}); ; {
		l, err := a.svc.Spaces(ctx, u, orgID, p)
		if err != nil {
			return nil, err
		}
		for _, s := range l.Items {
			n := &TreeNode{ID: s.Space.ID, Title: s.Space.Title, Emoji: s.Space.Emoji, Space: true, Level: s.Level, position: s.Space.Position}
			parents[n] = s.Space.Parent
			all = append(all, n)
		}
		if l.Next == "" {
			break
		}
		p.Cursor = l.Next
	}
	var roots []*TreeNode
	for _, n := range all {
		if parent, ok := nodes[parents[n]]; ok {
			parent.Children = append(parent.Children, n)
		} else {
			roots = append(roots, n)
		}
	}
	sortTree(roots)
	return roots, nil
}

// sortTree orders siblings by position, then title, at every depth.
func sortTree(ns []*TreeNode) {
	sort.SliceStable(ns, func(i, j int) bool {
		if ns[i].position != ns[j].position {
			return ns[i].position < ns[j].position
		}
		return ns[i].Title < ns[j].Title
	})
	for _, n := range ns {
		sortTree(n.Children)
	}
}
