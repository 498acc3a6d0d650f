// Package translate turns the text of documents into another language
// through a machine translation engine.
//
// An Engine speaks to one engine, named by the scheme of its URL:
// libretranslate+http://host:port (a LibreTranslate server's /translate),
// deepl+https://api.deepl.com (DeepL's /v2/translate) or
// openai+http://host:port/v1?model=NAME (any OpenAI-compatible
// /chat/completions endpoint, local model servers included). Every
// request goes through the guarded outbound client of package fetch;
// segments are sent in batches, a rate limit spaces the requests, and a
// busy or failing engine is tried again with a growing delay.
//
// A Segments collects what a document holds as text (paragraphs,
// headings, list items, table cells and column titles, hint, tab and step
// titles, captions, image alt text) and leaves out code, inline code,
// formulas, expressions, URLs, mentions and emoji. Each text block is one
// segment in a small markup: every run of text is wrapped in <gN>…</gN>
// and every piece kept as is stands as <xN/>, so that an engine
// translates whole sentences while the blocks, keys, marks and links of
// the document stay where they were. Apply writes the translations back
// into the same nodes.
package translate
