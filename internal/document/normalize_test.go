package document

import "testing"

// TestNormalization checks inputs that are not in exporter form and the
// form they are written back in.
func TestNormalization(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"dash bullets", "- a\n- b", "* a\n* b"},
		{"star italic", "*it*", "_it_"},
		{"underscore bold", "__b__", "**b**"},
		{"thematic break", "---", "***"},
		{"setext heading", "Title\n=====", "# Title"},
		{"soft break", "one\ntwo", "one two"},
		{"two-space break", "one  \ntwo", "one\\\ntwo"},
		{"html strong", "<strong>x</strong> and <em>y</em>", "**x** and _y_"},
		{"br", "a<br>b", "a<br>b"},
		{"autolink", "<https://example.com>", "[https://example.com](https://example.com)"},
		{"reference link", "[a][1]\n\n[1]: https://example.com", "[a](https://example.com)"},
		{"math alone on one line", "$$x+y$$", "$$\nx+y\n$$"},
		{"tags without blank lines", "{% hint style=\"info\" %}Inline hint{% endhint %}", "{% hint style=\"info\" %}\nInline hint\n{% endhint %}"},
		{"page-ref legacy", `{% page-ref page="setup.md" %}`, "{% content-ref url=\"setup.md\" %}\n[setup.md](setup.md)\n{% endcontent-ref %}"},
		{"embed caption attribute", `{% embed url="https://x.io" caption="Cap" %}`, "{% embed url=\"https://x.io\" %}\nCap\n{% endembed %}"},
		{"details open", "<details open>\n<summary>T</summary>\n\nB\n</details>", "<details>\n\n<summary>T</summary>\n\nB\n\n</details>"},
		{"emoji span", `<span data-gb-custom-inline data-tag="emoji" data-code="2705">✅</span> ok`, `<span data-gb-custom-inline data-tag="emoji" data-code="2705">✅</span> ok`},
		{"unclosed tag is text", "{% hint style=\"info\" %}\nno end", "\\{% hint style=\"info\" %} no end"},
		{"link title single quotes", `[a](b.md 'Title')`, `[a](b.md "Title")`},
		{"lone file tag", `{% file src="../.gitbook/assets/a.pdf" %}`, "{% file src=\"../.gitbook/assets/a.pdf\" %}\n{% endfile %}"},
		{"lone file then captioned", "{% file src=\"a.pdf\" %}\n\n{% file src=\"b.pdf\" %}\nB\n{% endfile %}", "{% file src=\"a.pdf\" %}\n{% endfile %}\n\n{% file src=\"b.pdf\" %}\nB\n{% endfile %}"},
		{"swagger simple form", "{% swagger src=\"https://x.io/s.json\" path=\"/a\" method=\"get\" %}\n{% endswagger %}", "{% openapi src=\"https://x.io/s.json\" path=\"/a\" method=\"get\" %}\n[https://x.io/s.json](https://x.io/s.json)\n{% endopenapi %}"},
		{"openapi on one line", `{% openapi src="s.yaml" path="/a" method="get" %}[s.yaml](s.yaml){% endopenapi %}`, "{% openapi src=\"s.yaml\" path=\"/a\" method=\"get\" %}\n[s.yaml](s.yaml)\n{% endopenapi %}"},
		{"update tags spaced", "{% updates %}\n{% update date=\"2026-01-02\" tags=\"a, b\" %}\nX\n{% endupdate %}\n{% endupdates %}", "{% updates %}\n{% update date=\"2026-01-02\" tags=\"a,b\" %}\nX\n{% endupdate %}\n{% endupdates %}"},
		{"footnote labels renumbered", "A[^note].\n\n[^note]: Body.", "A[^1].\n\n[^1]: Body."},
		{"data mention", `<a href="page.md" data-mention>Page</a>`, `[page.md](page.md "mention")`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := mustToMarkdown(t, mustFromMarkdown(t, tc.in))
			if got != tc.want+"\n" {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			// The normalized form is stable.
			if again := mustToMarkdown(t, mustFromMarkdown(t, got)); again != got {
				t.Fatalf("not stable:\n%s", again)
			}
		})
	}
}
