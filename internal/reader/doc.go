// Package reader renders published documentation for readers as
// server-side HTML: a documentation page (the site's header, section tabs,
// page tree, the page's document, its outline and previous/next links), a
// page as Markdown for llms.txt, the server's start page and a readable
// reference of the server's own OpenAPI document.
//
// The page shell is an html/template; the document body is written by a
// small escaping writer (see body.go) because a template call per block
// costs more than the whole page should. Every text and attribute value is
// escaped, and every address passes SafeURL, which refuses schemes other
// than http, https, mailto and tel. Code is highlighted on the server
// with chroma; the only JavaScript is for the copy button, tabs, the
// theme toggle and the sidebar toggle, embedded with the stylesheet.
//
// Nothing here knows about sites or storage: callers build a Page from
// what they have and pass resolvers for the references a document holds.
package reader
