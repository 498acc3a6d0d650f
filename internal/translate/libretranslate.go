package translate

import (
	"context"

	"quire/internal/fetch"
)

// libreTranslate speaks LibreTranslate's POST /translate, with the
// segments as an array of q and format html so that tags are kept.
type libreTranslate struct {
	f    *fetch.Client
	base string
	key  string
}

// libreRequest is the body of POST /translate.
type libreRequest struct {
	Q      []string `json:"q"`
	Source string   `json:"source"`
	Target string   `json:"target"`
	Format string   `json:"format"`
	APIKey string   `json:"api_key,omitempty"`
}

// libreAnswer is its answer for an array of q.
type libreAnswer struct {
	TranslatedText []string `json:"translatedText"`
}

func (l *libreTranslate) translate(ctx context.Context, r Request) ([]string, error) {
	in := libreRequest{Q: r.Segments, Source: libreLanguage(r.From), Target: libreLanguage(r.To), Format: "html", APIKey: l.key}
	var out libreAnswer
	if err := postJSON(ctx, l.f, l.base+"/translate", nil, in, &out); err != nil {
		return nil, err
	}
	return out.TranslatedText, nil
}

// libreLanguage maps an API language code to LibreTranslate's.
func libreLanguage(code string) string {
	switch code {
	case "pt-br":
		return "pt-BR"
	case "no":
		return "nb"
	case "zh":
		return "zh-Hans"
	case "yue":
		return "zh-Hant"
	}
	return code
}
