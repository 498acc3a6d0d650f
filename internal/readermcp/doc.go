// Package readermcp serves a published documentation site to AI assistants
// over the Model Context Protocol (streamable HTTP transport, stateless).
//
// The caller authenticates the visitor and decides which site is asked for;
// it hands this package a [Docs] that answers only what that visitor may
// see. Three tools are offered: search, get_page (the page as Markdown) and
// list_pages (the page tree).
package readermcp
