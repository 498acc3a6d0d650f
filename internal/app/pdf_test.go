package app_test

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"quire/internal/app"
	"quire/internal/httpapi"
	"quire/internal/pdf"
	"quire/internal/service"
	"quire/internal/testutil"
)

// withPDFs gives the app and the API a PDF exporter.
func withPDFs(t *testing.T) harnessOption {
	return func(h *harness, cfg *httpapi.Config, acfg *app.Config) {
		fonts, err := pdf.LoadFonts("")
		if err != nil {
			t.Fatalf("pdf fonts: %v", err)
		}
		cfg.PDFs = service.NewPDFs(h.Svc, fonts)
		acfg.PDFs = cfg.PDFs
	}
}

// TestDownloadPDF follows the app's "Download PDF" links of a space and
// of a change request as a reader: each leads to a signed link that
// answers the PDF without the session, whose text is the content (the
// change request's own edit in its PDF, main's in the space's). A person
// outside the organization is refused the link.
func TestDownloadPDF(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "sqlite", withPDFs(t))
	f := newSpaceFixture(t, h)
	admin := h.client(t, h.signIn(t, h.Admin))
	space := "/app/s/" + f.Space.ID
	if st, _, body := h.get(t, admin, space); st != http.StatusOK || !strings.Contains(body, `href="`+space+`/~/pdf">Download PDF</a>`) {
		t.Fatalf("the space page lacks the PDF link: %d", st)
	}
	cr := space + "/~/changes/" + strconv.Itoa(f.Open)
	if st, _, body := h.get(t, admin, cr); st != http.StatusOK || !strings.Contains(body, `href="`+cr+`/pdf">Download this change request as PDF</a>`) {
		t.Fatalf("the change request page lacks the PDF link: %d", st)
	}
	for _, c := range []struct {
		path, want, not string
	}{
		{space + "/~/pdf", "How to install Quire.", "quickly"},
		{cr + "/pdf", "How to install Quire quickly.", ""},
	} {
		st, to, _ := h.get(t, admin, c.path)
		if st != http.StatusSeeOther || !strings.HasPrefix(to, "/v1/pdfs/"+f.Space.ID+"/") || !strings.Contains(to, "signature=") {
			t.Fatalf("%s: %d to %q, want a signed PDF link", c.path, st, to)
		}
		// The link works on its own, as a download does.
		res, err := http.Get(h.URL + to)
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil || res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(string(data), "%PDF") {
			t.Fatalf("%s: %d %q, want a PDF", to, res.StatusCode, res.Header.Get("Content-Type"))
		}
		text := pdfText(t, data)
		if !strings.Contains(text, c.want) || c.not != "" && strings.Contains(text, c.not) {
			t.Errorf("%s: the PDF's text lacks %q (or holds %q):\n%s", c.path, c.want, c.not, text)
		}
	}
	stranger := h.client(t, h.signIn(t, h.newUser(t, "sam@elsewhere.test", "Sam Stranger", "")))
	if st, to, _ := h.get(t, stranger, space+"/~/pdf"); st != http.StatusNotFound || to != "" {
		t.Errorf("a stranger's PDF link: %d to %q, want 404", st, to)
	}
}

// pdfText extracts the text of a PDF with pdftotext, as a reader would
// copy it.
func pdfText(t *testing.T, data []byte) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		testutil.Missing(t, "pdftotext is not installed (Debian package poppler-utils); .ci/run installs it")
	}
	path := filepath.Join(t.TempDir(), "out.pdf")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}
