package document

// nestedCases combine and nest blocks.
func nestedCases() []struct{ name, md string } {
	return []struct{ name, md string }{
		{"hint with list and code", "{% hint style=\"warning\" %}\nBefore you start:\n\n* back up\n* stop the server\n\n```bash\nsystemctl stop quire\n```\n{% endhint %}"},
		{"tabs with code", "{% tabs %}\n{% tab title=\"Go\" %}\n```go\nfmt.Println(1)\n```\n{% endtab %}\n\n{% tab title=\"Python\" %}\n{% code title=\"main.py\" %}\n```python\nprint(1)\n```\n{% endcode %}\n{% endtab %}\n{% endtabs %}"},
		{"stepper with headings", "{% stepper %}\n{% step %}\n## First\n\n### Details\n\nText.\n{% endstep %}\n\n{% step %}\n## Second\n\n* a\n* b\n{% endstep %}\n{% endstepper %}"},
		{"columns with content", "{% columns %}\n{% column width=\"40%\" %}\n### Left\n\n![](a.png)\n{% endcolumn %}\n\n{% column width=\"60%\" %}\n{% hint style=\"info\" %}\nRight hint.\n{% endhint %}\n{% endcolumn %}\n{% endcolumns %}"},
		{"expandable with table", "<details>\n\n<summary>Limits</summary>\n\n| Plan | Limit |\n| ---- | ----- |\n| Free | 10    |\n\n</details>"},
		{"list in hint in list", "* item\n\n  {% hint style=\"info\" %}\n  Nested hint.\n  {% endhint %}\n* next"},
	}
}
