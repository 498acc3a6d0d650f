package translate

import (
	"context"
	"encoding/json"
	"io"
	"net/http"

	"quire/internal/fetch"
)

// postJSON sends in as JSON to rawURL with the given headers and decodes
// the answer into out.
func postJSON(ctx context.Context, f *fetch.Client, rawURL string, header http.Header, in, out any) error {
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	if header == nil {
		header = http.Header{}
	}
	header.Set("Content-Type", "application/json")
	header.Set("Accept", "application/json")
	resp, err := f.Post(ctx, rawURL, header, b)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, out); err != nil {
		return &answerError{msg: "not the JSON expected: " + err.Error()}
	}
	return nil
}
