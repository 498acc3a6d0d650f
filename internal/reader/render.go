package reader

import (
	"embed"
	"html/template"
	"io"
	"regexp"
	"strings"

	"github.com/microcosm-cc/bluemonday"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed assets/reader.css
var readerCSS string

// hexColor matches the colors a site may set.
var hexColor = regexp.MustCompile(`^#(?:[0-9a-fA-F]{3}){1,2}$`)

// Renderer renders reader pages. It is safe for concurrent use; build one
// with New and keep it.
type Renderer struct {
	tmpl *template.Template
	hl   *highlighter
	// policy filters the raw HTML of documents.
	policy *bluemonday.Policy
	css    template.CSS
	// assets are the scripts pages load, by their hashed names.
	assets *assets
}

// New parses the templates and prepares the stylesheet.
func New() (*Renderer, error) {
	hl := newHighlighter()
	funcs := template.FuncMap{
		// safe passes an address through SafeURL; what is left is
		// trusted as a URL.
		"safe": func(u string) template.URL { return template.URL(SafeURL(u)) },
		"linkStyle": func(style string) string {
			switch style {
			case "button-primary":
				return "button"
			case "button-secondary":
				return "button button-secondary"
			}
			return "header-link"
		},
		"methodClass": methodClass,
	}
	t, err := template.New("reader").Funcs(funcs).ParseFS(templateFS, "templates/*.html")
	if err != nil {
		return nil, err
	}
	// The stylesheet is embedded in the binary, never from input.
	css := template.CSS(readerCSS + hl.css())
	as, err := loadAssets()
	if err != nil {
		return nil, err
	}
	return &Renderer{tmpl: t, hl: hl, policy: htmlPolicy(), css: css, assets: as}, nil
}

// chrome is what the shell templates read, shared by every page kind.
type chrome struct {
	Lang        string
	Theme       string
	DocTitle    string
	Description string
	MarkdownURL string
	NoIndex     bool
	HomeURL     string
	Site        Site
	Sections    []Section
	Search      Search
	HasSidebar  bool
	CSS         template.CSS
	Vars        template.CSS
	// ThemeURL and ScriptURL are the addresses of the scripts that apply
	// the theme before paint and run the page.
	ThemeURL  string
	ScriptURL string
}

// pageData is the template data of a documentation page.
type pageData struct {
	chrome
	Variants      []Link
	VariantsLabel string
	Tree          []treeNode
	Title         string
	CoverURL      string
	Layout        Layout
	Body          template.HTML
	Empty         bool
	Outline       []Heading
	Previous      *Link
	Next          *Link
}

func (r *Renderer) chrome(site Site, lang, docTitle string) chrome {
	if lang == "" {
		lang = "en"
	}
	theme := ""
	if site.DefaultTheme == "light" || site.DefaultTheme == "dark" {
		theme = site.DefaultTheme
	}
	var vars strings.Builder
	if hexColor.MatchString(site.PrimaryColor) {
		vars.WriteString(":root{--primary:" + site.PrimaryColor + "}")
	}
	if hexColor.MatchString(site.PrimaryColorDark) {
		vars.WriteString("[data-theme=dark]{--primary:" + site.PrimaryColorDark + "}")
	}
	home := site.HomeURL
	if home == "" {
		home = "/"
	}
	return chrome{Lang: lang, Theme: theme, DocTitle: docTitle, HomeURL: home, Site: site,
		CSS: r.css, Vars: template.CSS(vars.String()), ThemeURL: r.assets.url(themeScript), ScriptURL: r.assets.url(pageScript)}
}

// RenderBody writes the HTML of a document's blocks, followed by its
// footnotes, and returns the outline of its headings.
func (r *Renderer) RenderBody(w io.Writer, p *Page) ([]Heading, error) {
	body, outline := r.body(p)
	_, err := io.WriteString(w, body)
	return outline, err
}

// body returns the HTML of the page's document and its outline.
func (r *Renderer) body(p *Page) (string, []Heading) {
	bw := newBodyWriter(&p.Resolvers, r.hl, r.policy)
	if p.Document != nil {
		bw.shiftHeadings(p.Document.Nodes)
		if p.BlockKeys {
			bw.keyedBlocks(p.Document.Nodes)
		} else {
			bw.blocks(p.Document.Nodes)
		}
	}
	bw.footnotes()
	return bw.b.String(), bw.outline
}

// RenderPage writes a whole documentation page.
func (r *Renderer) RenderPage(w io.Writer, p *Page) error {
	body, outline := r.body(p)
	docTitle := p.Title
	if p.Site.Title != "" && p.Site.Title != p.Title {
		docTitle += " | " + p.Site.Title
	}
	c := r.chrome(p.Site, p.Lang, docTitle)
	c.Description = p.Description
	c.MarkdownURL = p.MarkdownURL
	c.NoIndex = p.NoIndex
	c.Sections = p.Sections
	c.Search = p.Search
	c.HasSidebar = !p.Layout.HideTree || len(p.Variants) > 1
	label := p.VariantsLabel
	if label == "" {
		label = "Version"
	}
	seq := 0
	tree, _ := treeNodes(p.Tree, &seq)
	data := pageData{chrome: c, Variants: p.Variants, VariantsLabel: label, Tree: tree,
		Title: p.Title, CoverURL: p.CoverURL, Layout: p.Layout,
		// The body writer escapes every value it writes (body.go).
		Body: template.HTML(body), Empty: p.Empty,
		Outline: outline, Previous: p.Previous, Next: p.Next}
	if p.Layout.HideCover {
		data.CoverURL = ""
	}
	if p.Layout.HideOutline {
		data.Outline = nil
	}
	if p.Layout.HidePagination {
		data.Previous, data.Next = nil, nil
	}
	if p.Layout.HideTree {
		data.Tree = nil
	}
	return r.tmpl.ExecuteTemplate(w, "page", data)
}
