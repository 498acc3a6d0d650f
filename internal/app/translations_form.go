package app

import (
	"encoding/json"
	"net/http"
	"strings"
	"unicode/utf8"

	"quire/internal/document"
	"quire/internal/quire"
	"quire/internal/service"
)

// maxInstructions is the longest instructions the forms take, in
// characters: style rules for the engine, sent with every batch.
const maxInstructions = 10000

// translationForm is the create form as typed, or as shown at first.
type translationForm struct {
	Source, SourceLanguage, Language, Instructions string
}

// typedTranslationForm returns the create form's values as sent.
func typedTranslationForm(r *http.Request) translationForm {
	return translationForm{Source: strings.TrimSpace(r.PostFormValue("source")),
		SourceLanguage: r.PostFormValue("source_language"), Language: r.PostFormValue("language"),
		Instructions: r.PostFormValue("instructions")}
}

// createInput checks the form and turns it into the service's input:
// a source space, two different languages of the API's list and
// instructions within maxInstructions.
func (f translationForm) createInput() (service.TranslationInput, error) {
	in := service.TranslationInput{SourceSpace: f.Source, SourceLanguage: f.SourceLanguage}
	switch {
	case f.Source == "":
		return in, quire.Invalid("source", "must be chosen")
	case !knownLanguage(f.SourceLanguage):
		return in, quire.Invalid("sourceLanguage", "must be one of the listed languages")
	case !knownLanguage(f.Language):
		return in, quire.Invalid("language", "must be one of the listed languages")
	case f.Language == f.SourceLanguage:
		return in, quire.Invalid("language", "must differ from the source language")
	}
	lang := f.Language
	in.Language = &lang
	doc, err := instructionsDocument(f.Instructions)
	in.Instructions = doc
	return in, err
}

// instructionsDocument turns instructions typed as plain text into the
// rich-text document the API takes: a paragraph for each run of lines
// between blank lines, the line breaks within one kept. Blank text is
// no instructions (nil).
func instructionsDocument(text string) ([]byte, error) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if n := utf8.RuneCountInString(text); n > maxInstructions {
		return nil, quire.Invalid("instructions", "must be at most %d characters (%d given)", maxInstructions, n)
	}
	if !utf8.ValidString(text) || strings.ContainsRune(text, 0) {
		return nil, quire.Invalid("instructions", "must be text")
	}
	var blocks []document.Node
	var lines []string
	flush := func() {
		if len(lines) > 0 {
			blocks = append(blocks, document.Block(document.TypeParagraph, nil,
				document.Text(document.PlainLeaf(strings.Join(lines, "\n")))))
			lines = nil
		}
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		lines = append(lines, line)
	}
	flush()
	if len(blocks) == 0 {
		return nil, nil
	}
	return json.Marshal(document.New(blocks...))
}

// instructionsText returns stored instructions as the plain text the
// form shows: a block a paragraph, blank lines between them. rich is
// true when they hold more than plain paragraphs (set through the API):
// saving them from the form keeps their text only.
func instructionsText(raw []byte) (text string, rich bool) {
	if raw == nil {
		return "", false
	}
	d, err := document.ParseStored(raw)
	if err != nil {
		return "", true
	}
	paras := make([]string, 0, len(d.Nodes))
	for _, n := range d.Nodes {
		if !plainParagraph(n) {
			rich = true
		}
		if t := document.New(n).PlainText(); t != "" {
			paras = append(paras, t)
		}
	}
	return strings.Join(paras, "\n\n"), rich
}

// plainParagraph reports whether a block is a paragraph of unmarked
// text.
func plainParagraph(n document.Node) bool {
	if n.Object != document.ObjectBlock || n.Type != document.TypeParagraph {
		return false
	}
	for _, c := range n.Nodes {
		if c.Object != document.ObjectText {
			return false
		}
		for _, l := range c.Leaves {
			if len(l.Marks) > 0 {
				return false
			}
		}
	}
	return true
}
