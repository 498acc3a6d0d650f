package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// pdfMarkdown is a page whose PDF needs every font of the image: Latin
// text and task boxes (☐ and ☑ are in DejaVu Sans, not in the Go fonts
// the server falls back to), Chinese and Japanese (Droid Sans Fallback)
// and Korean (Nanum Gothic), which no font built into the binary has.
const pdfMarkdown = "Fonts of the image: 中文, 日本語, 한국어.\n\n- [ ] open task\n- [x] done task\n"

// checkPDF creates a space with one page through the API at base and
// exports it as a PDF, which must be set in the image's fonts.
func checkPDF(t *testing.T, base, token string) {
	t.Helper()
	orgs := call(t, http.MethodGet, base+"/v1/orgs", token, "")
	items, _ := orgs["items"].([]any)
	if len(items) == 0 {
		t.Fatalf("no organization: %v", orgs)
	}
	org := items[0].(map[string]any)["id"].(string)
	space := call(t, http.MethodPost, base+"/v1/orgs/"+org+"/spaces", token, `{"title":"Fonts"}`)["id"].(string)
	cr := call(t, http.MethodPost, base+"/v1/spaces/"+space+"/change-requests", token, `{"subject":"Fonts"}`)["id"].(string)
	change, _ := json.Marshal(map[string]any{"changes": []any{map[string]any{
		"operation": "insert_page", "title": "Fonts", "document": map[string]string{"markdown": pdfMarkdown}}}})
	call(t, http.MethodPost, base+"/v1/spaces/"+space+"/change-requests/"+cr+"/content", token, string(change))
	call(t, http.MethodPost, base+"/v1/spaces/"+space+"/change-requests/"+cr+"/merge", token, "")
	link := call(t, http.MethodGet, base+"/v1/spaces/"+space+"/pdf", token, "")["url"].(string)
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	pdf, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("PDF download: %d, %v, %.100q", resp.StatusCode, err, pdf)
	}
	// The CJK faces are embedded only when their font files were found.
	for _, face := range []string{"/BaseFont /cjk", "/BaseFont /hangul"} {
		if !bytes.Contains(pdf, []byte(face)) {
			t.Errorf("the PDF has no %s: the image's CJK fonts were not found", face)
		}
	}
	text, ok := pdfText(t, pdf)
	if !ok {
		return
	}
	for _, want := range []string{"中文", "日本語", "한국어", "☐ open task", "☑ done task"} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF's text lacks %q, which the image's fonts set:\n%s", want, text)
		}
	}
}

// pdfText returns the text of a PDF as poppler's pdftotext reads it; it
// reports false where pdftotext is missing, except in CI, which installs
// it (.ci/run).
func pdfText(t *testing.T, pdf []byte) (string, bool) {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("pdftotext is missing (Debian package poppler-utils, which .ci/run installs)")
		}
		t.Log("pdftotext is missing (poppler-utils): the PDF's text is not read")
		return "", false
	}
	cmd := exec.CommandContext(t.Context(), "pdftotext", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out), true
}

// call sends an API request with the token and decodes the JSON object
// answered, failing the test on any status but 2xx.
func call(t *testing.T, method, url, token, body string) map[string]any {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode/100 != 2 {
		t.Fatalf("%s %s: %d %s", method, url, resp.StatusCode, b)
	}
	out := map[string]any{}
	if len(bytes.TrimSpace(b)) > 0 {
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, url, err, b)
		}
	}
	return out
}
