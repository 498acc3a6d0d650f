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
// ids and back: it sees every target with its TargetUse, card targets as
// UseContentRef and card covers as UseImage, embed URLs as UseEmbed and
// OpenAPI sources as UseOpenAPI.
//
// Nesting. Containers (hints, tabs, steps, columns, expandables, list
// items, quotes) accept any content block, as GitBook's editor does, even
// where the schema of @gitbook/api 0.143.2 lists fewer (a hint there holds
// only paragraphs, headings, lists and dividers; columns and "if" are not
// listed as top-level blocks).
//
// GitBook's HTML. HTML tables become table blocks: data-view="cards"
// gives a cards view whose hidden columns (data-hidden) hold each card's
// target (data-card-target, a link) and covers (data-card-cover,
// data-card-cover-dark, file or image links); data-full-width,
// data-header-hidden and <th width> are kept, and cells may hold
// paragraphs, lists, code, images and nested tables. A table is written
// back as a pipe table when one can carry it, else as HTML on one line.
// <pre><code> keeps data-title, data-line-numbers, data-overflow,
// data-full-width and data-expandable, the language of its class, and
// highlighted lines, which GitBook wraps, line end included, in <strong>
// (a <mark> without a style is read the same way); other formatting
// tags become marks. A code block with highlighted lines or marks is
// written in that form. Images in <p align> or
// <center> become aligned image blocks.
//
// Footnotes. A reference [^x] becomes an annotation over the word just
// before it, whose body is the definition; ToMarkdown numbers them [^1],
// [^2], … in order and writes the definitions at the end.
//
// Other forms. Link and image titles are kept in data "title". A task
// checkbox in an ordered list is kept in its item's "checked". Emoji
// codes keep a U+FE0F variation selector ("2764-fe0f"). OpenAPI blocks
// become the schema's swagger (src) and openapi-operation, -schemas and
// -webhook (spec) blocks, their fallback link kept in "body" when it is
// not the one ToMarkdown writes; {% updates %} and {% update %} become
// updates and update blocks.
//
// Alignment. An aligned paragraph or heading is written as <p align> or
// <h2 align> (for instance) holding its inline HTML, and read back.
//
// What Markdown cannot carry. Table columns other than text, links,
// files and images (written as their text), <details open>, bold inside
// code lines, task lists inside HTML table cells, and blocks without a
// Markdown form (integration blocks, written as their text) do not
// survive ToMarkdown. Whitespace at the edge of a marked run is written
// outside the delimiters, and emphasis that CommonMark's flanking rules
// would not read back is written as HTML (<strong>, <em>, <s>).
//
// Unknown input. A {% tag %} block this package does not model (a
// prompt, a legacy swagger block with its parameters, an API method),
// an integration tag on its own line, and HTML that is not one of
// GitBook's forms (comments included) become "raw" blocks, or "raw"
// inlines for inline HTML, whose data "markdown" holds the source,
// written back unchanged. An unclosed tag is text.
package document
