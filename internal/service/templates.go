package service

import (
	"context"
	"sort"
	"strings"

	"quire/internal/quire"
)

// templatePage is a page a template creates, with its children.
type templatePage struct {
	Title    string
	Markdown string
	Children []templatePage
}

// templates returns the built-in space templates by id.
func templates() map[string][]templatePage {
	return map[string][]templatePage{
		"product-docs": {
			{Title: "Overview", Markdown: "Welcome to the product documentation.\n\n{% hint style=\"info\" %}\nStart with the quickstart to have something running in minutes.\n{% endhint %}\n"},
			{Title: "Getting started", Markdown: "Everything you need before you begin.\n", Children: []templatePage{
				{Title: "Quickstart", Markdown: "## Install\n\n```bash\ncurl -fsSL https://example.com/install.sh | sh\n```\n\n## Run\n\nStart the product and open it in your browser.\n"},
				{Title: "Concepts", Markdown: "The main ideas behind the product, and how they fit together.\n"},
			}},
			{Title: "Guides", Markdown: "Step-by-step guides for common tasks.\n"},
			{Title: "FAQ", Markdown: "<details>\n\n<summary>How do I get help?</summary>\n\nAsk your administrator or open a support request.\n\n</details>\n"},
		},
		"api-reference": {
			{Title: "Introduction", Markdown: "This reference describes every endpoint of the API.\n"},
			{Title: "Authentication", Markdown: "Send your API token in the `Authorization` header:\n\n```http\nAuthorization: Bearer <token>\n```\n"},
			{Title: "Errors", Markdown: "| Status | Meaning |\n| --- | --- |\n| 400 | The request is malformed |\n| 401 | The token is missing or invalid |\n| 404 | The resource does not exist |\n"},
			{Title: "Endpoints", Markdown: "One page per resource.\n", Children: []templatePage{
				{Title: "Users", Markdown: "## Get the authenticated user\n\n```http\nGET /v1/user\n```\n"},
				{Title: "Spaces", Markdown: "## Get a space\n\n```http\nGET /v1/spaces/{spaceId}\n```\n"},
			}},
		},
		"knowledge-base": {
			{Title: "Home", Markdown: "Our team's knowledge base: how we work and where to find things.\n"},
			{Title: "Onboarding", Markdown: "* Set up your accounts\n* Meet your team\n* Read the handbook\n"},
			{Title: "Processes", Markdown: "How we plan, build and ship.\n", Children: []templatePage{
				{Title: "Planning", Markdown: "How we decide what to work on next.\n"},
				{Title: "Releases", Markdown: "How a change goes from a branch to production.\n"},
			}},
			{Title: "Policies", Markdown: "The rules we all follow.\n"},
		},
	}
}

// TemplateIDs lists the ids of the built-in templates.
func TemplateIDs() []string {
	var ids []string
	for id := range templates() {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// ApplyTemplate adds the pages of a built-in template to a space's main
// content, as a new revision. contentRefs fill the template's named
// content references; the built-in templates declare none, so any given
// is refused rather than silently dropped.
func (s *Service) ApplyTemplate(ctx context.Context, u *quire.User, spaceID, id string, contentRefs map[string]quire.ContentRef) error {
	pages, ok := templates()[id]
	if !ok {
		return quire.Invalid("id", "unknown template %q; known: %s", id, strings.Join(TemplateIDs(), ", "))
	}
	if len(contentRefs) > 0 {
		names := make([]string, 0, len(contentRefs))
		for name := range contentRefs {
			names = append(names, name)
		}
		sort.Strings(names)
		return quire.Invalid("params.contentRefs."+names[0],
			"template %q takes no content references; remove %q", id, names[0])
	}
	_, err := retryConflicts(func() (struct{}, error) {
		return struct{}{}, s.editMain(ctx, u, spaceID, func(b *batch) error {
			return b.insertTemplate(ctx, pages, "")
		})
	})
	return err
}

// insertTemplate inserts template pages under a parent.
func (b *batch) insertTemplate(ctx context.Context, pages []templatePage, parent string) error {
	for _, tp := range pages {
		md, title := tp.Markdown, tp.Title
		r, err := b.insertPage(ctx, "id", ContentChange{Operation: OpInsertPage, Into: &parent,
			Document: &DocumentInput{Markdown: &md}, Fields: PageFields{Title: &title}})
		if err != nil {
			return err
		}
		if err := b.insertTemplate(ctx, tp.Children, r.PageID); err != nil {
			return err
		}
	}
	return nil
}

// editMain applies edits directly to a live space's main content as one
// new revision; ECONFLICT when main moved meanwhile.
func (s *Service) editMain(ctx context.Context, u *quire.User, spaceID string, edit func(*batch) error) error {
	sp, err := liveSpace(ctx, s.store, spaceID)
	if err != nil {
		return err
	}
	if sp.EditMode == quire.EditModeLocked {
		return quire.Errorf(quire.EINVALID, "the space is locked: its content cannot change")
	}
	rev, err := s.store.Revision(ctx, sp.ID, sp.Revision)
	if err != nil {
		return err
	}
	b := &batch{s: s, ed: s.engine.Edit(s.store, rev), base: rev, refs: map[string]string{}, files: map[string]string{}}
	if err := edit(b); err != nil {
		return err
	}
	next := b.ed.Revision(quire.NewID(), sp.ID, quire.RevisionEdits, u.ID, rev.ID)
	if err := b.ed.Commit(ctx, s.store, next); err != nil {
		return err
	}
	if err := advanceSpace(ctx, s.store, sp.ID, rev.ID, next.ID); err != nil {
		return err
	}
	s.announceContent(ctx, sp.ID)
	return nil
}
