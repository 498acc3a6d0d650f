// Package document holds Quire's rich-text document model and its
// conversion to and from GitBook Markdown.
//
// A Document is the JSON tree of the compatibility API: blocks, inlines
// and text nodes with leaves and marks, in the shape of the JSONDocument
// schema (object/type/key/isVoid/data/nodes/leaves/marks/fragments). Parse
// reads and validates that JSON; FromMarkdown and ToMarkdown convert
// between a Document and GitBook Markdown; BlockHash and ReuseKeys keep
// block keys stable across re-imports.
//
// Heading levels. The Markdown of the API (format=markdown of a page body)
// writes editor heading-1/2/3 as "#", "##" and "###". Page files in a Git
// repository keep "#" for the page title and shift body headings down one
// level ("##", "###", "####"); pass HeadingOffset(1) for that form. On
// import, levels above the first are clamped to heading-1 and levels past
// the third to heading-3.
//
// Links and files. Without a LinkResolver, Markdown targets map to
// references as follows: "#x" is an anchor, an image, file or drawing
// source without a URL scheme is a file reference whose id is the path,
// and anything else is a URL. WithLinkResolver maps paths to page and file
// ids and back.
//
// Nesting. Containers (hints, tabs, steps, columns, expandables, list
// items, quotes) accept any content block, as GitBook's editor does, even
// where the schema of @gitbook/api 0.143.2 lists fewer (a hint there holds
// only paragraphs, headings, lists and dividers; columns and "if" are not
// listed as top-level blocks).
//
// What Markdown cannot carry. Paragraph and heading alignment, a table's
// hidden header, column widths and non-text column types, marks inside
// code lines, <details open>, link titles, annotations (written as their
// text) and blocks without a Markdown form (integration, OpenAPI and
// swagger blocks, written as their text) do not survive ToMarkdown.
// Whitespace at the edge of a marked run is written outside the delimiters,
// and emphasis that CommonMark's flanking rules would not read back is
// written as HTML (<strong>, <em>, <s>).
//
// Unknown input. A {% tag %} this package does not know keeps its content
// without the tag; an unclosed tag is text. An HTML block that is not one
// of GitBook's forms becomes paragraphs of its text.
package document
