package httpapi

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// importedRepository is a GitBook repository as Git Sync imports them:
// raw HTML in pages, SVG and PNG images by repository path, a cover, a
// page whose layout hides its title, and pages five levels deep.
func importedRepository(t *testing.T) map[string]string {
	png := string(pngBytes(t, 160, 90))
	summary := "# Table of contents\n\n* [Welcome](README.md)\n* [Plain](plain.md)\n" +
		"* [Tutorials](tutorials/README.md)\n  * [First tutorial](tutorials/first.md)\n\n## Reference\n\n"
	files := map[string]string{}
	for i := 1; i <= 30; i++ {
		n := strconv.Itoa(i)
		summary += "* [Command " + n + "](reference/c" + n + ".md)\n"
		files["reference/c"+n+".md"] = "# Command " + n + "\n\nRuns step " + n + ".\n"
	}
	summary += "\n## Guides\n\n* [Guides](guides/README.md)\n  * [Setup](guides/setup/README.md)\n" +
		"    * [Linux](guides/setup/linux/README.md)\n      * [Debian](guides/setup/linux/debian.md)\n" +
		"        * [Bookworm](guides/setup/linux/bookworm.md)\n"
	files["SUMMARY.md"] = summary
	for k, v := range map[string]string{
		"README.md": "---\ndescription: The imported handbook.\ncover: .gitbook/assets/cover.png\ncoverY: 0\n---\n\n# Welcome\n\n" +
			"<p align=\"center\"><picture><source srcset=\".gitbook/assets/logo.svg\" media=\"(prefers-color-scheme: dark)\">" +
			"<img src=\".gitbook/assets/logo.svg\" alt=\"Quire logo\" width=\"160\"></picture></p>\n\n" +
			"Press <kbd>Ctrl</kbd> + <kbd>K</kbd>, or <span data-gb-custom-block data-tag=\"emoji\" data-code=\"1f44b\">wave</span>" +
			" at the <abbr title=\"Command line\">CLI</abbr><sup>1</sup>.<br>Next line.\n\n" +
			"<dl><dt>Space</dt><dd>A set of pages.</dd><dt>Site</dt><dd>Spaces published together.</dd></dl>\n\n" +
			"<details>\n\n<summary>More about spaces</summary>\n\nSpaces hold **pages**.\n\n</details>\n\n" +
			"<!-- an editor's note -->\n\n" +
			"{% prompt %}\nSummarize **this** page.\n{% endprompt %}\n\n" +
			"![A chart](.gitbook/assets/chart.png)\n\n" +
			"## Spaces\n\nText.\n\n## Sites\n\nText.\n\n## Files\n\n" + strings.Repeat("Files are kept by revision.\n\n", 30),
		"plain.md": "---\ndescription: Not shown either.\nlayout:\n  title:\n    visible: false\n  description:\n    visible: false\n" +
			"  outline:\n    visible: false\n---\n\n# Plain page\n\nA page without its title.\n\n## Part\n\nText.\n",
		"guides/README.md":             "# Guides\n\nAll guides.\n",
		"guides/setup/README.md":       "# Setup\n\nSet up.\n",
		"guides/setup/linux/README.md": "# Linux\n\nOn Linux.\n",
		"guides/setup/linux/debian.md": "# Debian\n\n![Logo](../../../.gitbook/assets/logo.svg)\n\n<img src=\"../../../.gitbook/assets/chart.png\" alt=\"Chart\" width=\"200\">\n\n" +
			"<div>\n<p>Next: <a href=\"bookworm.md#release\">Bookworm</a>, or <a href=\"../../../plain.md\">plain</a>.</p>\n</div>\n",
		"guides/setup/linux/bookworm.md": "# Bookworm\n\nThe current release.\n",
		"tutorials/README.md":            "# Tutorials\n\nLearn by doing.\n",
		"tutorials/first.md":             "# First tutorial\n\nStart here.\n",
		".gitbook/assets/logo.svg":       scriptedSVG,
		".gitbook/assets/chart.png":      png,
		".gitbook/assets/cover.png":      png,
	} {
		files[k] = v
	}
	return files
}

// importedSite imports importedRepository into a space by Git Sync and
// publishes it as the site "handbook".
func (ts *testServer) importedSite(t *testing.T) {
	t.Helper()
	admin := ts.token(cAdmin)
	url := pushRepo(t, importedRepository(t))
	space := ts.newSpace(t, "Handbook")
	ts.must(t, http.StatusNoContent, "POST", gitPath(space, "import"), admin, map[string]any{"url": url, "ref": "refs/heads/main"})
	if info := ts.waitGit(t, space); str(info, "operation.state") != "success" {
		t.Fatalf("import: %v", info)
	}
	id := ts.newSite(t, map[string]any{"title": "Handbook", "spaces": []string{space}})
	ts.must(t, 200, "PATCH", ts.sitePath(id, ""), admin, map[string]any{"basename": "handbook"})
	ts.must(t, 200, "POST", ts.sitePath(id, "/publish"), admin, nil)
}

// shownSource matches HTML tags or Liquid tags in text or code.
var shownSource = regexp.MustCompile(`&lt;/?[a-zA-Z]|\{%`)

// An imported repository reads as its authors meant: raw HTML drawn,
// images from the site's files, the layout of the front matter, and
// Markdown whose images resolve from the site.
func TestSiteReaderImportedRepository(t *testing.T) {
	t.Parallel()
	ts := newConfiguredServer(t, engineSQLite, nil)
	ts.importedSite(t)

	home := string(ts.wantVisit(t, 200, "/sites/handbook/", nil).Body)
	main := home[strings.Index(home, "<main"):strings.Index(home, "</main>")]
	for _, want := range []string{"<dl>", "<dt>Space</dt>", "<kbd>Ctrl</kbd>", "<details", "More about spaces",
		`<div class="prompt"`, `<abbr title="Command line">CLI</abbr>`, "<picture>", `class="cover"`} {
		if !strings.Contains(main, want) {
			t.Errorf("the page lacks %s: %s", want, main)
		}
	}
	if m := shownSource.FindString(main); m != "" {
		t.Errorf("the page shows source %q: %s", m, main)
	}
	if strings.Contains(main, "editor&#39;s note") || strings.Contains(main, "editor's note") {
		t.Error("the HTML comment is shown")
	}
	for _, src := range regexp.MustCompile(`(?:src|srcset)="([^"]+)"`).FindAllStringSubmatch(main, -1) {
		if !strings.HasPrefix(src[1], "/sites/handbook/~files/") {
			t.Errorf("image from %q, not the site's files", src[1])
		}
	}
	debianURL := regexp.MustCompile(`href="(/sites/handbook/[^"]*/debian)"`).FindStringSubmatch(home)
	if debianURL == nil {
		t.Fatal("no link to Debian in the tree")
	}
	debian := string(ts.wantVisit(t, 200, debianURL[1], nil).Body)
	if n := strings.Count(debian, `src="/sites/handbook/~files/`); n != 2 {
		t.Errorf("%d images of Debian from the site's files, want 2", n)
	}
	// Raw HTML links to pages of the repository lead to those pages.
	for _, want := range []string{`href="` + debianURL[1] + `/bookworm#release"`, `href="/sites/handbook/plain"`} {
		if !strings.Contains(debian, want) {
			t.Errorf("Debian lacks %s: %s", want, debian)
		}
	}

	plain := string(ts.wantVisit(t, 200, "/sites/handbook/plain", []string{`<h1 class="visually-hidden">Plain</h1>`}).Body)
	if strings.Contains(plain, `class="description"`) || strings.Contains(plain, `class="outline"`) {
		t.Error("the layout's hidden description or outline is drawn")
	}

	md := string(ts.wantVisit(t, 200, "/sites/handbook/welcome.md", nil).Body)
	if strings.Contains(md, ".gitbook/") {
		t.Errorf("the Markdown keeps repository paths: %s", md)
	}
	if !strings.Contains(md, "](/sites/handbook/~files/") || !strings.Contains(md, `src="/sites/handbook/~files/`) {
		t.Errorf("the Markdown's images do not lead to the site's files: %s", md)
	}
}
