package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"quire/internal/fetch"
)

// openAI speaks the chat-completions API of OpenAI and of the servers
// that copy it (Ollama, vLLM, llama.cpp): the segments go as a JSON
// array, and the answer must be an array of the same length.
type openAI struct {
	f     *fetch.Client
	base  string
	key   string
	model string
}

// chatMessage is one message of a conversation.
type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// chatRequest is the body of POST /chat/completions.
type chatRequest struct {
	Model       string        `json:"model"`
	Messages    []chatMessage `json:"messages"`
	Temperature float64       `json:"temperature"`
}

// chatAnswer is its answer.
type chatAnswer struct {
	Choices []struct {
		Message chatMessage `json:"message"`
	} `json:"choices"`
}

// systemPrompt tells the model what to do with the segments.
const systemPrompt = `You translate documentation from %s to %s.
You receive a JSON array of strings. Answer with a JSON array of the same length, nothing else: element i is the translation of element i.
The strings are XML-escaped text with tags: keep every tag such as <g1>, </g1> and <x2/> exactly as it is, around the translation of the text it wrapped; never translate or drop an <xN/>; keep entities such as &amp; escaped.`

func (o *openAI) translate(ctx context.Context, r Request) ([]string, error) {
	sys := fmt.Sprintf(systemPrompt, languageName(r.From), languageName(r.To))
	if strings.TrimSpace(r.Instructions) != "" {
		sys += "\nFollow these style rules:\n" + r.Instructions
	}
	segs, err := json.Marshal(r.Segments)
	if err != nil {
		return nil, err
	}
	in := chatRequest{Model: o.model, Temperature: 0,
		Messages: []chatMessage{{Role: "system", Content: sys}, {Role: "user", Content: string(segs)}}}
	h := http.Header{}
	if o.key != "" {
		h.Set("Authorization", "Bearer "+o.key)
	}
	var out chatAnswer
	if err := postJSON(ctx, o.f, o.base+"/chat/completions", h, in, &out); err != nil {
		return nil, err
	}
	if len(out.Choices) == 0 {
		return nil, &answerError{msg: "no choices"}
	}
	return decodeArray(out.Choices[0].Message.Content)
}

// decodeArray reads the JSON array of strings a model answered, which it
// may have wrapped in prose or a code fence.
func decodeArray(s string) ([]string, error) {
	i, j := strings.IndexByte(s, '['), strings.LastIndexByte(s, ']')
	if i < 0 || j < i {
		return nil, &answerError{msg: "no JSON array in the model's answer"}
	}
	var out []string
	if err := json.Unmarshal([]byte(s[i:j+1]), &out); err != nil {
		return nil, &answerError{msg: "the model's array is not a JSON array of strings"}
	}
	return out, nil
}

// languageName names a language code in English, for prompts, or
// returns the code.
func languageName(code string) string {
	switch code {
	case "en":
		return "English"
	case "fr":
		return "French"
	case "de":
		return "German"
	case "es":
		return "Spanish"
	case "it":
		return "Italian"
	case "pt":
		return "Portuguese"
	case "pt-br":
		return "Brazilian Portuguese"
	case "ru":
		return "Russian"
	case "ja":
		return "Japanese"
	case "zh":
		return "Simplified Chinese"
	case "zh-tw":
		return "Traditional Chinese"
	case "yue":
		return "Cantonese"
	case "ko":
		return "Korean"
	case "ar":
		return "Arabic"
	case "hi":
		return "Hindi"
	case "nl":
		return "Dutch"
	case "pl":
		return "Polish"
	case "tr":
		return "Turkish"
	case "sv":
		return "Swedish"
	case "no":
		return "Norwegian"
	case "da":
		return "Danish"
	case "fi":
		return "Finnish"
	case "el":
		return "Greek"
	case "cs":
		return "Czech"
	case "hu":
		return "Hungarian"
	case "ro":
		return "Romanian"
	case "th":
		return "Thai"
	case "vi":
		return "Vietnamese"
	case "id":
		return "Indonesian"
	case "ms":
		return "Malay"
	case "he":
		return "Hebrew"
	case "uk":
		return "Ukrainian"
	case "sk":
		return "Slovak"
	case "bg":
		return "Bulgarian"
	case "hr":
		return "Croatian"
	case "lt":
		return "Lithuanian"
	case "lv":
		return "Latvian"
	case "et":
		return "Estonian"
	case "sl":
		return "Slovenian"
	}
	return code
}
