package translate_test

import (
	"encoding/json"
	"strings"
	"testing"

	"quire/internal/document"
	"quire/internal/translate"
	"quire/internal/translate/translatetest"
)

// sampleDoc has a paragraph with marks, a link, inline code and a
// formula, a heading, a list, code, a hint with a title and a table.
const sampleDoc = `{"object":"document","data":{},"nodes":[
{"object":"block","type":"heading-1","key":"h","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Getting started","marks":[]}]}]},
{"object":"block","type":"paragraph","key":"p","data":{},"nodes":[
 {"object":"text","leaves":[{"object":"leaf","text":"Run ","marks":[]},{"object":"leaf","text":"npm i","marks":[{"object":"mark","type":"code"}]},{"object":"leaf","text":" then read ","marks":[]},{"object":"leaf","text":"this","marks":[{"object":"mark","type":"bold"}]}]},
 {"object":"inline","type":"link","key":"l","data":{"ref":{"kind":"url","url":"https://example.com/a"}},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"guide","marks":[]}]}]},
 {"object":"inline","type":"inline-math","key":"m","isVoid":true,"data":{"formula":"x^2"}},
 {"object":"text","leaves":[{"object":"leaf","text":".","marks":[]}]}]},
{"object":"block","type":"code","key":"c","data":{"syntax":"bash"},"nodes":[{"object":"block","type":"code-line","key":"cl","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"echo hello","marks":[]}]}]}]},
{"object":"block","type":"hint","key":"hi","data":{"style":"info","title":"Note"},"nodes":[{"object":"block","type":"paragraph","key":"hp","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Careful & calm","marks":[]}]}]}]}
]}`

func TestSegmentsKeepStructure(t *testing.T) {
	d, err := document.Parse([]byte(sampleDoc))
	if err != nil {
		t.Fatal(err)
	}
	var s translate.Segments
	title := "Intro"
	s.Plain(title, func(v string) { title = v })
	s.Document(d)
	texts := s.Texts()
	joined := strings.Join(texts, "\n")
	for _, kept := range []string{"npm i", "echo hello", "x^2", "example.com"} {
		if strings.Contains(joined, kept) {
			t.Errorf("%q was sent for translation: %q", kept, texts)
		}
	}
	out := make([]string, len(texts))
	for i, tx := range texts {
		out[i] = translatetest.Fake(tx, "fr")
	}
	if err := s.Apply(out); err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if title != "[fr] Intro" {
		t.Errorf("title %q", title)
	}
	for _, want := range []string{`"[fr] Getting started"`, `"[fr] Run "`, `"npm i"`, `" [fr] then read "`, `"."`, `"[fr] this"`,
		`"[fr] guide"`, `"x^2"`, `"echo hello"`, `"[fr] Note"`, `"[fr] Careful \u0026 calm"`, `"https://example.com/a"`} {
		if !strings.Contains(string(got), want) && !strings.Contains(string(got), strings.ReplaceAll(want, `\u0026`, "&")) {
			t.Errorf("translated document lacks %s: %s", want, got)
		}
	}
	if strings.Count(string(got), `"key"`) != strings.Count(sampleDoc, `"key"`) {
		t.Errorf("keys changed: %s", got)
	}
	if s.Words() == 0 {
		t.Error("no words counted")
	}
}

func TestSegmentsSurviveDroppedTags(t *testing.T) {
	d, err := document.Parse([]byte(sampleDoc))
	if err != nil {
		t.Fatal(err)
	}
	var s translate.Segments
	s.Document(d)
	out := make([]string, len(s.Texts()))
	for i := range out {
		out[i] = "plain answer without tags"
	}
	if err := s.Apply(out); err != nil {
		t.Fatal(err)
	}
	if _, err := json.Marshal(d); err != nil {
		t.Fatal(err)
	}
}
