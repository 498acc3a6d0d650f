// Package gitbook converts between a repository tree in GitBook's Git Sync
// layout and a space's page tree, both ways. It does no I/O: Read takes
// the files of a project directory as a map of paths to bytes and returns
// the pages, files and redirects they describe; Write does the reverse.
//
// The layout. An optional .gitbook.yaml names the content root, the
// landing page (structure.readme), the table of contents
// (structure.summary) and redirects; missing or empty, it means root
// "./", README.md and SUMMARY.md. SUMMARY.md lists the pages: "##"
// headings are groups (their slug is the id of an <a id> anchor in the
// heading, or the slugified title), nested list items are child pages,
// links with a URL scheme or to an anchor of a page listed elsewhere are
// link pages, and a fenced yaml block of "type: builtin:…" is a computed
// page. Without SUMMARY.md the tree follows the folders: a folder's
// README.md is the page of that folder, the other files its children,
// sorted by name. Markdown files the tree does not reach are reported in
// Space.Unlisted.
//
// Page files. YAML front matter carries the description, icon, hidden
// flag, layout, cover and the other keys of GitBook's exporter; keys this
// package does not map are kept in Page.Extra. The first "# " line is the
// page title, not a body block; a leading emoji in a title is the page's
// emoji. Bodies are converted by package document with HeadingOffset(1),
// so editor heading-1 is "##" in the file. Relative links to page files
// become page references (kind "anchor", with the page, when the link has
// a fragment), and links to other files of the repository, most often
// under .gitbook/assets, become file references. Targets that resolve to
// nothing keep their text and give a warning.
//
// Write writes pages at their slug paths (a page with children as
// slug/README.md, a leaf as slug.md, pages of a group under the group's
// slug, the landing page (the page read from README.md, else the first
// document page) as README.md) unless a page's Path from an
// earlier Read is still free and agrees with its slug, so that a round
// trip moves no file. Reading what Write wrote gives back the same tree
// and the same documents.
package gitbook
