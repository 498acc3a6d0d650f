package app_test

// convertCase is pasted HTML and what its Markdown must and must not
// hold.
type convertCase struct {
	name, html string
	want, not  []string
}

// convertCases are clipboard samples as browsers give them: a web
// page's selection, Word's and Google Docs' markup.
var convertCases = []convertCase{
	{
		name: "web page",
		html: `<meta charset="utf-8"><h2 id="setup">Setup</h2><p>Run <code>quire serve</code> and open <a href="https://quire.example/docs">the docs</a>.` +
			`<script>alert(1)</script><style>p{color:red}</style></p><ul><li>One <strong>bold</strong></li><li>Two <em>italic</em></li></ul>` +
			`<p><a href="/relative">relative link</a> <a href="javascript:alert(1)">scripted</a> <img src="https://quire.example/a.png" alt="Logo"> <img src="data:image/png;base64,AAAA" alt="inline"></p>` +
			`<table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody><tr><td>a</td><td>1</td></tr></tbody></table>`,
		want: []string{"## Setup", "`quire serve`", "[the docs](https://quire.example/docs)", "* One **bold**", "* Two _italic_",
			"relative link", "scripted", "![Logo](https://quire.example/a.png)", "| Name | Value |"},
		not: []string{"alert", "color:red", "/relative", "javascript:", "data:image", "<script"},
	},
	{
		name: "Word",
		html: `<html xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word"><head><meta name=Generator content="Microsoft Word 15">` +
			`<style><!-- p.MsoNormal {mso-style-parent:""; margin:0cm; font-size:11.0pt;} --></style><!--[if gte mso 9]><xml><w:WordDocument><w:View>Normal</w:View></w:WordDocument></xml><![endif]--></head>` +
			`<body lang=EN-GB style='tab-interval:36.0pt'><!--StartFragment-->` +
			`<p class=MsoTitle>Release plan<o:p></o:p></p>` +
			`<h1>Goals<o:p></o:p></h1>` +
			`<p class=MsoNormal>We ship <b><span style='mso-bidi-font-weight:normal'>every month</span></b> and <i>test</i> <span style='font-weight:bold'>first</span>.<o:p></o:p></p>` +
			`<p class=MsoNormal><o:p>&nbsp;</o:p></p>` +
			`<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol;mso-fareast-font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp;</span></span></span><![endif]>Plan<o:p></o:p></p>` +
			`<p class=MsoListParagraphCxSpMiddle style='margin-left:72.0pt;mso-add-space:auto;text-indent:-18.0pt;mso-list:l0 level2 lfo1'><![if !supportLists]><span style='font-family:"Courier New"'><span style='mso-list:Ignore'>o<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;</span></span></span><![endif]>Write notes<o:p></o:p></p>` +
			`<p class=MsoListParagraphCxSpLast style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;</span></span></span><![endif]>Release<o:p></o:p></p>` +
			`<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l1 level1 lfo2'><![if !supportLists]><span><span style='mso-list:Ignore'>1.<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;</span></span></span><![endif]>Freeze<o:p></o:p></p>` +
			`<p class=MsoListParagraphCxSpLast style='text-indent:-18.0pt;mso-list:l1 level1 lfo2'><![if !supportLists]><span><span style='mso-list:Ignore'>2.<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;</span></span></span><![endif]>Tag<o:p></o:p></p>` +
			`<table class=MsoTableGrid border=1 cellspacing=0 cellpadding=0 style='border-collapse:collapse;mso-yfti-tbllook:1184'>` +
			`<tr style='mso-yfti-irow:0'><td width=301 valign=top style='width:225.4pt;border:solid windowtext 1.0pt'><p class=MsoNormal><b>Month<o:p></o:p></b></p></td><td width=301 valign=top><p class=MsoNormal><b>Owner<o:p></o:p></b></p></td></tr>` +
			`<tr style='mso-yfti-irow:1'><td width=301 valign=top><p class=MsoNormal>May<o:p></o:p></p></td><td width=301 valign=top><p class=MsoNormal>Ada<o:p></o:p></p></td></tr></table>` +
			`<!--EndFragment--></body></html>`,
		want: []string{"# Release plan", "# Goals", "We ship **every month** and _test_ **first**.", "* Plan\n  * Write notes\n* Release", "1. Freeze\n2. Tag",
			"| Month | Owner |", "| May", "Ada"},
		not: []string{"mso-", "o:p", "MsoNormal", "Symbol", "·", "&nbsp;", "WordDocument", "StartFragment", "supportLists", "<!--"},
	},
	{
		name: "Google Docs",
		html: `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-5c1a2b3c-7fff-1234-abcd-0123456789ab">` +
			`<h2 dir="ltr" style="line-height:1.38;margin-top:18pt;margin-bottom:6pt;"><span style="font-size:16pt;font-family:Arial,sans-serif;color:#000000;font-weight:400;font-style:normal;">Onboarding</span></h2>` +
			`<p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;"><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;">Read the </span><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:700;">handbook</span><span style="font-size:11pt;font-weight:400;"> and the </span><span style="font-size:11pt;font-weight:400;font-style:italic;">style guide</span><span style="font-size:11pt;font-weight:400;text-decoration:line-through;">old wiki</span><span style="font-weight:400;">.</span></p>` +
			`<br><ul style="margin-top:0;margin-bottom:0;padding-inline-start:48px;"><li dir="ltr" style="list-style-type:disc;font-size:11pt;" aria-level="1"><p dir="ltr" role="presentation"><span style="font-weight:400;">Laptop</span></p></li>` +
			`<ul style="margin-top:0;margin-bottom:0;"><li dir="ltr" style="list-style-type:circle;" aria-level="2"><p dir="ltr" role="presentation"><span style="font-weight:400;">Charger</span></p></li></ul>` +
			`<li dir="ltr" style="list-style-type:disc;" aria-level="1"><p dir="ltr" role="presentation"><span style="font-weight:400;">Badge</span></p></li></ul>` +
			`<div dir="ltr" style="margin-left:0pt;" align="left"><table style="border:none;border-collapse:collapse;"><colgroup><col width="100"><col width="100"></colgroup><tbody>` +
			`<tr style="height:0pt"><td style="border-left:solid #000000 1pt;"><p dir="ltr"><span style="font-weight:700;">Day</span></p></td><td><p dir="ltr"><span style="font-weight:700;">Task</span></p></td></tr>` +
			`<tr style="height:0pt"><td><p dir="ltr"><span style="font-weight:400;">1</span></p></td><td><p dir="ltr"><span style="font-weight:400;">Setup</span></p></td></tr></tbody></table></div></b>`,
		want: []string{"## Onboarding", "Read the **handbook** and the _style guide_~~old wiki~~.", "* Laptop\n  * Charger\n* Badge", "| Day | Task  |", "| 1", "Setup"},
		not:  []string{"font-weight", "docs-internal-guid", "**Onboarding**", "**Read"},
	},
}
