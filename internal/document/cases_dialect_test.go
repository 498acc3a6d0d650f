package document

// dialectCases are GitBook Markdown forms read from real repositories,
// in the exporter's normalized form: each converts to a document and
// back to the same text.
func dialectCases() []struct{ name, md string } {
	return []struct{ name, md string }{
		{"openapi url", "{% openapi src=\"https://petstore3.swagger.io/api/v3/openapi.json\" path=\"/pet\" method=\"post\" %}\n[https://petstore3.swagger.io/api/v3/openapi.json](https://petstore3.swagger.io/api/v3/openapi.json)\n{% endopenapi %}"},
		{"openapi file", "{% openapi src=\"../.gitbook/assets/openapi.yaml\" path=\"/pets\" method=\"get\" %}\n[openapi.yaml](../.gitbook/assets/openapi.yaml)\n{% endopenapi %}"},
		{"openapi other body", "{% openapi src=\"https://x.io/spec.json\" path=\"/a\" method=\"get\" %}\n[Spec](https://x.io/spec.json)\n{% endopenapi %}"},
		{"openapi-operation", "{% openapi-operation spec=\"petstore\" path=\"/pet\" method=\"get\" %}\n[OpenAPI petstore](https://petstore3.swagger.io/api/v3/openapi.json)\n{% endopenapi-operation %}"},
		{"openapi-schemas", "{% openapi-schemas spec=\"petstore\" schemas=\"Pet,Tag\" grouped=\"false\" %}\n[OpenAPI petstore](https://x.io/openapi.json)\n{% endopenapi-schemas %}"},
		{"openapi-webhook", "{% openapi-webhook spec=\"petstore\" name=\"newPet\" method=\"post\" %}\n[OpenAPI petstore](https://x.io/openapi.json)\n{% endopenapi-webhook %}"},
		{"swagger legacy", "{% swagger method=\"get\" path=\"/users\" baseUrl=\"https://api.x.io\" summary=\"List users\" %}\n{% swagger-description %}\nReturns users.\n{% endswagger-description %}\n\n{% swagger-parameter in=\"query\" name=\"id\" type=\"String\" required=\"true\" %}\nThe id\n{% endswagger-parameter %}\n\n{% swagger-response status=\"200: OK\" description=\"\" %}\n```json\n{}\n```\n{% endswagger-response %}\n{% endswagger %}"},
		{"updates", "{% updates format=\"full\" %}\n{% update date=\"2026-08-06\" tags=\"api,editor\" %}\n## New editor\n\nFaster.\n{% endupdate %}\n\n{% update date=\"2026-07-01\" %}\nFixes.\n{% endupdate %}\n{% endupdates %}"},
		{"prompt", "{% prompt description=\"Ask the assistant\" icon=\"sparkles\" defaultExpanded=\"full\" openInAIProviders=\"true\" %}\n```md\nSummarize *this* page.\n```\n{% endprompt %}"},
		{"unknown tag", "{% api-method method=\"get\" host=\"https://x.io\" path=\"/v1\" %}\n{% api-method-summary %}\nGet\n{% endapi-method-summary %}\n{% endapi-method %}"},
		{"integration block", `{% @github-files/github-code-block url="https://github.com/x/y/blob/main/a.go" %}`},
		{"if else", "{% if visitor.claims.unsigned.beta %}\nBeta text.\n\n{% else %}\n\nStable text.\n{% endif %}"},
		{"html comment", "<!-- a comment\nover two lines -->"},
		{"unknown html", "<div class=\"custom\">\n  <span>Kept *as is*</span>\n</div>"},
		{"raw in hint", "{% hint style=\"info\" %}\n<!-- note -->\n\nText.\n{% endhint %}"},
		{"raw in list", "* item\n\n  {% prompt %}\n  Ask.\n  {% endprompt %}"},
	}
}

// inlineDialectCases cover footnotes, tasks, titles, comments and emoji.
func inlineDialectCases() []struct{ name, md string } {
	return []struct{ name, md string }{
		{"ordered tasks", "1. [ ] first\n2. [x] second\n3. plain"},
		{"link title", `See [docs](https://x.io "The docs") now.`},
		{"link title quote", `See [docs](a.md "Say \"hi\"") now.`},
		{"image title", `![Logo](../.gitbook/assets/logo.png "Our logo")`},
		{"inline image title", `An ![icon](icon.png "Icon") inline.`},
		{"emoji variation selector", "Made with ❤️ and 🛠️ tools, ✅ done."},
	}
}

// footnoteCases cover annotations written as footnotes.
func footnoteCases() []struct{ name, md string } {
	return []struct{ name, md string }{
		{"footnote", "GitBook[^1] syncs **content**[^2].\n\n[^1]: A documentation platform.\n\n[^2]: Pages and files."},
		{"footnote blocks", "A claim[^1].\n\n[^1]: First paragraph.\n\n    * a list\n    * inside"},
		{"footnote after space", "Note: [^1]\n\n[^1]: Body."},
		{"footnote in list", "* item[^1]\n\n[^1]: In a list."},
		{"footnote empty", "Empty[^1]\n\n[^1]:"},
		{"footnote in heading and table", "## Title[^1]\n\n| a     |\n| ----- |\n| b[^2] |\n\n[^1]: x\n\n[^2]: note"},
		{"raw in quote", "> {% prompt %}\n> Ask\n> {% endprompt %}"},
	}
}

// rawInlineCases cover inline HTML kept as written.
func rawInlineCases() []struct{ name, md string } {
	return []struct{ name, md string }{
		{"inline comment", "Text <!-- hidden note --> more."},
		{"unknown inline tag", `An <u>underlined</u> and <span class="x">spanned</span> word.`},
	}
}
