package reader

import (
	"os"
	"strings"
	"testing"

	"quire/internal/document"
)

// fixtureDoc reads the fixture page, which holds every block kind.
func fixtureDoc(t testing.TB) *document.Document {
	t.Helper()
	src, err := os.ReadFile("testdata/fixture.md")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := document.FromMarkdown(string(src))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// fixtureResolvers resolve the fixture's file references to /files/…
// and its page references to /docs/….
func fixtureResolvers() Resolvers {
	return Resolvers{
		Link: func(ref document.Ref) Target {
			switch ref.Kind {
			case document.RefURL:
				u := ref.URL
				if !document.HasScheme(u) {
					u = "/docs/" + strings.TrimSuffix(strings.TrimSuffix(u, ".md"), "/")
				}
				return Target{URL: u}
			case document.RefAnchor:
				return Target{URL: "#" + ref.Anchor}
			}
			return Target{}
		},
		Image: func(ref document.Ref) string {
			if ref.Kind == document.RefURL {
				return ref.URL
			}
			return "/files/" + strings.TrimPrefix(ref.File, "../.gitbook/assets/")
		},
		File: func(ref document.Ref) Target {
			name := strings.TrimPrefix(ref.File, "../.gitbook/assets/")
			return Target{URL: "/files/" + name, Title: name}
		},
		Reusable: func(ref document.Ref) *document.Document {
			return document.New(document.Paragraph("Included note."))
		},
	}
}

// fixturePage is a page holding the fixture with every part of the
// shell filled in.
func fixturePage(t testing.TB) *Page {
	return &Page{
		Site: Site{
			Title: "Quire Docs", PrimaryColor: "#0b7a75", PrimaryColorDark: "#4fd1c5", ThemeToggle: true,
			HeaderLinks: []MenuItem{
				{Link: Link{Title: "Blog", URL: "https://example.com/blog"}},
				{Link: Link{Title: "Products"}, Children: []Link{{Title: "Server", URL: "/server"}, {Title: "Cloud", URL: "/cloud"}}},
				{Link: Link{Title: "Sign up", URL: "https://example.com/signup"}, Style: "button-primary"},
			},
			FooterGroups: []FooterGroup{{Title: "Community", Links: []Link{{Title: "Forum", URL: "https://example.com/forum"}}}},
			Announcement: &Announcement{Message: "Version 2 is out.", Style: "info", Link: &Link{Title: "Read more", URL: "/news"}},
		},
		Sections: []Section{
			{Link: Link{Title: "Guides", URL: "/docs", Active: true}},
			{Link: Link{Title: "API", URL: "/api"}},
			{Link: Link{Title: "More"}, Children: []Link{{Title: "Changelog", URL: "/changelog"}}},
		},
		Variants: []Link{{Title: "v2", URL: "/v2", Active: true}, {Title: "v1", URL: "/v1"}},
		Tree: []TreeItem{
			{Title: "Overview", URL: "/docs", Active: true},
			{Title: "Getting started", Group: true, Children: []TreeItem{
				{Title: "Quickstart", URL: "/docs/getting-started/quickstart", Children: []TreeItem{{Title: "Docker", URL: "/docs/getting-started/quickstart/docker"}}},
				{Title: "Secret draft", URL: "/docs/draft", Hidden: true},
			}},
		},
		Title:       "Every block",
		Description: "A page holding one of each block kind.",
		Document:    fixtureDoc(t),
		Previous:    &Link{Title: "Welcome", URL: "/docs/welcome"},
		Next:        &Link{Title: "Quickstart", URL: "/docs/getting-started/quickstart"},
		Search:      Search{Action: "/search"},
		MarkdownURL: "/docs/every-block.md",
		Resolvers:   fixtureResolvers(),
	}
}
