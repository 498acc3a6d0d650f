// Package gitbookrepo builds a Git Sync repository in GitBook's layout that
// holds every construct the import must carry whole: front matter in each
// YAML style GitBook's exporter and authors write, a table of contents
// with groups and items without a link, HTML tables alone and inside other
// HTML, raw HTML, figures with captions, images under .gitbook/assets and
// a .gitbook.yaml with a custom root and structure file names. Tests of
// the import and export, and of the published site, share it.
package gitbookrepo

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
)

// Root is the content directory the repository's .gitbook.yaml names.
const Root = "docs"

// Readme and Summary are the structure files, relative to Root.
const (
	Readme  = "intro.md"
	Summary = "toc.md"
)

// Files returns the repository: slash-separated paths from the
// repository's top to file bytes. Every call returns new slices.
func Files() map[string][]byte {
	out := map[string][]byte{
		".gitbook.yaml":   []byte(config),
		"CONTRIBUTING.md": []byte("# Contributing\n\nThis file is outside the content root.\n"),
	}
	for name, text := range pages() {
		out[Root+"/"+name] = []byte(text)
	}
	out[Root+"/.gitbook/assets/logo.svg"] = []byte(logoSVG)
	out[Root+"/.gitbook/assets/diagram (1).png"] = pngImage()
	return out
}

// PageFiles lists the page files of the repository, relative to Root, in
// the order of the table of contents.
func PageFiles() []string {
	return []string{Readme, "quick-start.md", "guides/setup.md", "guides/concepts/spaces.md",
		"guides/concepts/pages.md", "guides/tables.md", "api/html.md", "api/images.md", "api/later/notes.md"}
}

const config = `root: ./docs/

structure:
  readme: intro.md
  summary: toc.md

redirects:
  old/setup: guides/setup.md
  start: quick-start.md
`

const summary = `# Table of contents

* [👋 Welcome](intro.md)
* [Quick start](quick-start.md)

## Guides

* [Setup](guides/setup.md)
* Concepts
  * [Spaces](guides/concepts/spaces.md)
  * [Pages](guides/concepts/pages.md)
* [Tables](guides/tables.md)

## Reference <a href="#api" id="api"></a>

* [HTML](api/html.md)
* [Images](api/images.md)
* [Later](<>)
  * Drafts
    * [Notes](api/later/notes.md)
* [Website](https://example.com/docs)
`

func pages() map[string]string {
	return map[string]string{
		Summary: summary,
		Readme: `---
description: >-
  Everything you need to know about the product, from the first steps to the
  finer points of publishing: spaces, pages, tables and images, all kept as
  written.
cover: .gitbook/assets/diagram (1).png
coverY: 0
layout:
  width: wide
  cover:
    visible: true
    size: full
  title:
    visible: false
  description:
    visible: true
  tableOfContents:
    visible: true
  outline:
    visible: false
  pagination:
    visible: true
  metadata:
    visible: true
  tags:
    visible: true
  actions:
    visible: true
---

# 👋 Welcome

Start with the [quick start](quick-start.md), then read the [guides](guides/setup.md).

{% hint style="info" %}
Pages keep their front matter as written.
{% endhint %}
`,
		"quick-start.md": `---
description: 'Install it: then run "quire serve" #1'
icon: rocket
---

# Quick start

Run the server:

` + "```bash" + `
quire serve --addr :8080
` + "```" + `
`,
		"guides/setup.md": `---
description: |
  First line of the description.
  Second line, kept as its own line.
hidden: true
---

# Setup

1. Download the binary.
2. Start it.
`,
		"guides/concepts/spaces.md": `---
description: "  Padded with spaces, a tab\tand a non-breaking\u00a0space  "
---

# Spaces

A space holds pages.
`,
		"guides/concepts/pages.md": `---
description: Déjà vu — ünïcödé, emoji 🚀 and CJK 文档 in a plain description
noIndex: true
---

# Pages

A page has a title and a body.
`,
		"guides/tables.md": `---
description: >
  A folded description that ends with a line break, long enough to be folded
  by the exporter at eighty columns.
---

# Tables

A table GitBook writes:

<table data-full-width="true" data-header-hidden><thead><tr><th width="200">Name</th><th>Value</th></tr></thead><tbody><tr><td><strong>Bold</strong> name</td><td><code>value</code></td></tr><tr><td>Second</td><td>Two<br>lines</td></tr></tbody></table>

Cards:

<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody><tr><td><strong>Setup</strong></td><td>Install and start.</td><td><a href="setup.md">setup.md</a></td></tr><tr><td><strong>Spaces</strong></td><td>What a space is.</td><td><a href="concepts/spaces.md">spaces.md</a></td></tr></tbody></table>

A table in a centred block:

<div align="center"><table><tr><td>No head</td><td>Cells only</td></tr></table></div>

A table in a collapsed section:

<details>

<summary>Limits</summary>

<table><colgroup><col width="120"><col></colgroup><thead><tr><th>Limit</th><th>Value</th></tr></thead><tbody><tr><td>Pages</td><td>10 000</td></tr></tbody></table>

</details>

<center><table><tbody><tr><td>Centred</td></tr></tbody></table></center>

<figure><table><thead><tr><th>In a figure</th></tr></thead><tbody><tr><td>Cell</td></tr></tbody></table><figcaption><p>A table caption</p></figcaption></figure>

A pipe table:

| Key | Meaning |
| --- | ------- |
| a   | first   |
`,
		"api/html.md": `# HTML

Press <kbd>Ctrl</kbd> + <kbd>K</kbd> to search, see note<sup>1</sup> and the <mark style="color:red;">marked</mark> word.

A <span data-gb-custom-inline data-tag="emoji" data-code="2705">✅</span> check and a line<br>break.

<a href="https://example.com" class="button primary" data-icon="rocket">Get started</a>

<button type="button" class="button secondary" data-action="ask" data-query="How do I start?">Ask</button>

<details>

<summary>More details</summary>

Hidden text with **bold**.

</details>

<dl>
<dt>Term</dt>
<dd>Definition of the term.</dd>
</dl>

{% prompt description="Write a summary" icon="sparkles" %}
` + "```markdown" + `
Summarise this page in three lines.
` + "```" + `
{% endprompt %}

Some <img src="../.gitbook/assets/logo.svg" alt="logo" data-size="line"> inline image.
`,
		"api/images.md": `# Images

<figure><img src="../.gitbook/assets/diagram (1).png" alt="A diagram of the flow"><figcaption><p>The flow, <em>step by step</em></p></figcaption></figure>

![The logo](../.gitbook/assets/logo.svg)

<figure><picture><source srcset="../.gitbook/assets/logo.svg" media="(prefers-color-scheme: dark)"><img src="../.gitbook/assets/diagram (1).png" alt="Light and dark"></picture><figcaption></figcaption></figure>

<picture><source srcset="https://example.com/dark.png" media="(prefers-color-scheme: dark)"><img src="https://example.com/light.png" alt="Outside"></picture>
`,
		"api/later/notes.md": `---
description: ""
---

# Notes

Notes under two items without a link.
`,
	}
}

const logoSVG = `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#3b82f6"/></svg>
`

// pngImage is a small PNG with the same bytes on every call.
func pngImage() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	for x := 0; x < 4; x++ {
		for y := 0; y < 3; y++ {
			img.Set(x, y, color.RGBA{R: uint8(60 * x), G: uint8(80 * y), B: 200, A: 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err) // encoding an in-memory image does not fail
	}
	return b.Bytes()
}
