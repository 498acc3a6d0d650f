// Package links finds the content references of a revision (page links
// and anchors, files, URLs, reusable content, OpenAPI specs, link page
// targets and page covers) and tells, for each target, whether it is
// there: ok, broken (the page, anchor or file is not in the revision) or
// in-app (a URL into the server's own app or API).
//
// An Index is derived from one revision and never changes, so an Indexer
// builds it once per revision and keeps the most recently used ones in
// memory; revisions are immutable, which makes the cache safe on every
// replica. Lists of links, and page and file backlinks, are read from the
// index.
//
// Anchors are the headings of a page: a heading answers to its custom id
// (data "id"), its server-computed id (meta "id"), its block key, and the
// slug of its text (lower case, runs of other characters than letters and
// digits become "-"), which is how Markdown links name headings.
//
// References into other spaces, and to users, collections and spaces,
// are listed with status ok: they live outside the revision, so checking
// them would tie an index to more than its revision. References to
// OpenAPI specs are ok in the index too; a Filter's OpenAPI check gives
// their status when the links are read. Reusable content of the same space is looked for in the
// revision, which holds none, so such references are broken.
package links
