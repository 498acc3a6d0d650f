package app

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"

	"quire/internal/document"
)

// blockTemplate is one entry of the editor's insert menu: a block kind
// of the GitBook dialect, the words that find it, and the Markdown it
// inserts.
type blockTemplate struct {
	// Name is what the menu shows.
	Name string `json:"name"`
	// Keywords are other words typed to find the entry.
	Keywords []string `json:"keywords,omitempty"`
	// Type is the document block type the Markdown reads as.
	Type string `json:"type"`
	// Markdown is the block as inserted, ending with a newline.
	Markdown string `json:"markdown"`
}

// blockTemplates lists every block kind the insert menu offers, in the
// order it shows them. The Markdown is the page-body form (heading 1 is
// "#"), as the editor's textareas hold it.
func blockTemplates() []blockTemplate {
	return []blockTemplate{
		{"Text", []string{"paragraph", "plain"}, document.TypeParagraph, "Text\n"},
		{"Heading 1", []string{"title", "h1"}, document.TypeHeading1, "# Heading\n"},
		{"Heading 2", []string{"subtitle", "h2"}, document.TypeHeading2, "## Heading\n"},
		{"Heading 3", []string{"h3"}, document.TypeHeading3, "### Heading\n"},
		{"Bulleted list", []string{"unordered", "bullets", "ul"}, document.TypeListUnordered, "* Item\n* Item\n"},
		{"Numbered list", []string{"ordered", "ol"}, document.TypeListOrdered, "1. First\n2. Second\n"},
		{"Task list", []string{"todo", "checkbox", "checklist"}, document.TypeListTasks, "* [ ] To do\n* [x] Done\n"},
		{"Quote", []string{"blockquote", "citation"}, document.TypeBlockquote, "> Quote\n"},
		{"Info hint", []string{"hint", "callout", "note", "info"}, document.TypeHint, "{% hint style=\"info\" %}\nInformation\n{% endhint %}\n"},
		{"Success hint", []string{"hint", "callout", "tip", "success"}, document.TypeHint, "{% hint style=\"success\" %}\nSuccess\n{% endhint %}\n"},
		{"Warning hint", []string{"hint", "callout", "caution", "warning"}, document.TypeHint, "{% hint style=\"warning\" %}\nWarning\n{% endhint %}\n"},
		{"Danger hint", []string{"hint", "callout", "error", "danger"}, document.TypeHint, "{% hint style=\"danger\" %}\nDanger\n{% endhint %}\n"},
		{"Tabs", []string{"tab", "tabbed"}, document.TypeTabs, "{% tabs %}\n{% tab title=\"First tab\" %}\nFirst\n{% endtab %}\n\n{% tab title=\"Second tab\" %}\nSecond\n{% endtab %}\n{% endtabs %}\n"},
		{"Code block", []string{"code", "snippet", "title", "pre"}, document.TypeCode, "{% code title=\"example.js\" lineNumbers=\"true\" %}\n```javascript\nconsole.log(\"Hello\");\n```\n{% endcode %}\n"},
		{"Mermaid diagram", []string{"mermaid", "diagram", "chart", "graph"}, document.TypeCode, "```mermaid\ngraph TD\n  A --> B\n```\n"},
		{"Expandable", []string{"details", "collapse", "accordion", "toggle"}, document.TypeExpandable, "<details>\n\n<summary>Title</summary>\n\nHidden until opened.\n\n</details>\n"},
		{"Cards", []string{"card", "grid", "table"}, document.TypeTable, "<table data-view=\"cards\"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type=\"content-ref\"></th></tr></thead><tbody><tr><td><strong>First card</strong></td><td>Description</td><td><a href=\"https://example.com\">https://example.com</a></td></tr><tr><td><strong>Second card</strong></td><td>Description</td><td><a href=\"https://example.com\">https://example.com</a></td></tr></tbody></table>\n"},
		{"Page link", []string{"content reference", "content-ref", "card", "link"}, document.TypeContentRef, "{% content-ref url=\"https://example.com\" %}\n[example.com](https://example.com)\n{% endcontent-ref %}\n"},
		{"Embed", []string{"video", "youtube", "url", "iframe"}, document.TypeEmbed, "{% embed url=\"https://www.youtube.com/watch?v=aqz-KE-bpKQ\" %}\n"},
		{"File", []string{"attachment", "download", "pdf"}, document.TypeFile, "{% file src=\"https://example.com/file.pdf\" %}\nCaption\n{% endfile %}\n"},
		{"Image", []string{"picture", "photo", "figure"}, document.TypeImages, "<figure><img src=\"https://example.com/image.png\" alt=\"Description\"><figcaption><p>Caption</p></figcaption></figure>\n"},
		{"Table", []string{"grid", "columns", "rows"}, document.TypeTable, "| Column | Column |\n| ------ | ------ |\n| Cell   | Cell   |\n"},
		{"Math", []string{"formula", "tex", "latex", "katex", "equation"}, document.TypeMath, "$$\nE = mc^2\n$$\n"},
		{"Stepper", []string{"steps", "tutorial", "procedure"}, document.TypeStepper, "{% stepper %}\n{% step %}\n### First step\n\nDo this.\n{% endstep %}\n\n{% step %}\n### Second step\n\nThen this.\n{% endstep %}\n{% endstepper %}\n"},
		{"Columns", []string{"layout", "side by side", "two columns"}, document.TypeColumns, "{% columns %}\n{% column %}\nLeft\n{% endcolumn %}\n\n{% column %}\nRight\n{% endcolumn %}\n{% endcolumns %}\n"},
		{"OpenAPI operation", []string{"api", "swagger", "endpoint", "openapi"}, document.TypeSwagger, "{% openapi src=\"https://petstore3.swagger.io/api/v3/openapi.json\" path=\"/pet\" method=\"post\" %}\n[https://petstore3.swagger.io/api/v3/openapi.json](https://petstore3.swagger.io/api/v3/openapi.json)\n{% endopenapi %}\n"},
		{"API operation", []string{"api", "openapi", "operation", "endpoint", "reference"}, document.TypeOpenAPIOp, "{% openapi-operation spec=\"petstore\" path=\"/pets\" method=\"get\" %}\n{% endopenapi-operation %}\n"},
		{"Divider", []string{"rule", "separator", "hr", "line"}, document.TypeDivider, "***\n"},
	}
}

// blocksJSON is the insert menu's list as served: the same for every
// caller and every request while the server runs.
type blocksJSON struct {
	body []byte
	etag string
}

// newBlocksJSON encodes the insert menu's list once.
func newBlocksJSON() (*blocksJSON, error) {
	b, err := json.Marshal(menuEntries(blockTemplates()))
	if err != nil {
		return nil, err
	}
	return &blocksJSON{body: b, etag: strconv.Quote(hashOf(b))}, nil
}

// serveBlocks answers the insert menu's list of block templates: public,
// like the app's assets, and cacheable (it changes only with the server).
func (a *App) serveBlocks(w http.ResponseWriter, r *http.Request) error {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "public, max-age=3600")
	h.Set("ETag", a.blocks.etag)
	if r.Header.Get("If-None-Match") == a.blocks.etag {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	h.Set("Content-Length", strconv.Itoa(len(a.blocks.body)))
	_, err := w.Write(a.blocks.body)
	return err
}

// hashOf is a short hex digest of b, for an ETag.
func hashOf(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}
