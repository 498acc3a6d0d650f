package translate

import (
	"context"
	"net/http"
	"strings"

	"quire/internal/fetch"
)

// deepL speaks DeepL's POST /v2/translate with XML tag handling, the key
// in the Authorization header and the instructions as context.
type deepL struct {
	f    *fetch.Client
	base string
	key  string
}

// deepLRequest is the body of POST /v2/translate.
type deepLRequest struct {
	Text        []string `json:"text"`
	SourceLang  string   `json:"source_lang,omitempty"`
	TargetLang  string   `json:"target_lang"`
	TagHandling string   `json:"tag_handling"`
	Context     string   `json:"context,omitempty"`
}

// deepLAnswer is its answer.
type deepLAnswer struct {
	Translations []struct {
		Text string `json:"text"`
	} `json:"translations"`
}

func (d *deepL) translate(ctx context.Context, r Request) ([]string, error) {
	in := deepLRequest{Text: r.Segments, SourceLang: deepLSource(r.From), TargetLang: deepLTarget(r.To),
		TagHandling: "xml", Context: r.Instructions}
	h := http.Header{}
	if d.key != "" {
		h.Set("Authorization", "DeepL-Auth-Key "+d.key)
	}
	var out deepLAnswer
	if err := postJSON(ctx, d.f, d.base+"/v2/translate", h, in, &out); err != nil {
		return nil, err
	}
	texts := make([]string, len(out.Translations))
	for i, t := range out.Translations {
		texts[i] = t.Text
	}
	return texts, nil
}

// deepLSource maps an API language code to a DeepL source language.
func deepLSource(code string) string {
	switch code {
	case "pt-br":
		return "PT"
	case "no":
		return "NB"
	case "yue":
		return "ZH"
	}
	return strings.ToUpper(code)
}

// deepLTarget maps an API language code to a DeepL target language,
// which names the variant for English, Portuguese and Chinese.
func deepLTarget(code string) string {
	switch code {
	case "en":
		return "EN-US"
	case "pt":
		return "PT-PT"
	case "pt-br":
		return "PT-BR"
	case "zh":
		return "ZH-HANS"
	case "yue":
		return "ZH-HANT"
	case "no":
		return "NB"
	}
	return strings.ToUpper(code)
}
