package service

import (
	"bytes"
	"context"
	"crypto/hmac"
	"encoding/base64"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/pdf"
	"quire/internal/quire"
)

// PDF links.
const (
	// PDFLinkTTL is how long a PDF link works.
	PDFLinkTTL = time.Hour
	// pdfsSegment is the first path segment of PDF links below the API
	// root.
	pdfsSegment = "pdfs"
	// pdfRenderers bounds the renderings running at once in a process:
	// setting a large space takes a core for a while.
	pdfRenderers = 2
)

// PDFs sets spaces and change requests as PDF documents, served through
// signed links that need no token.
type PDFs struct {
	s     *Service
	fonts *pdf.Fonts
	slots chan struct{}
}

// NewPDFs returns the PDF service of s, setting text in fonts.
func NewPDFs(s *Service, fonts *pdf.Fonts) *PDFs {
	return &PDFs{s: s, fonts: fonts, slots: make(chan struct{}, pdfRenderers)}
}

// PDFRequest names what a PDF shows: a space's content, or a change
// request's (ChangeRequest, an id or number); every page, or one page
// with the pages below it, or (Only) that page alone.
type PDFRequest struct {
	SpaceID       string
	ChangeRequest string
	Page          string
	Only          bool
}

// PDFLink is a signed, expiring permission to download the PDF of a
// revision without a token. The signature is an HMAC-SHA256, under the
// download key, of every field but Name and the signature itself.
type PDFLink struct {
	SpaceID    string
	RevisionID string
	// ChangeRequestID is the change request whose content is shown, if
	// any; its subject titles the document.
	ChangeRequestID string
	Page            string
	Only            bool
	// Name is the file name the link's path ends with; it is not signed.
	Name string
	// Expires is when the link stops working, in Unix seconds.
	Expires   int64
	Signature string
}

// Link checks what the request names and returns a link to its PDF, at
// the revision the space or change request has now, working for
// PDFLinkTTL. Only without a page is refused (400 naming page); a page
// the revision does not have is ENOTFOUND.
func (p *PDFs) Link(ctx context.Context, req PDFRequest) (PDFLink, error) {
	if req.Only && req.Page == "" {
		return PDFLink{}, quire.Invalid("page", "a page is needed when only is true")
	}
	c, err := p.s.Content(ctx, ContentRef{SpaceID: req.SpaceID, ChangeRequest: req.ChangeRequest})
	if err != nil {
		return PDFLink{}, err
	}
	name := c.Space.Title
	if req.Page != "" {
		pg, err := c.Page(ctx, req.Page)
		if quire.IsNotFound(err) {
			return PDFLink{}, quire.NotFound("page")
		} else if err != nil {
			return PDFLink{}, err
		}
		name = pg.Title
	}
	l := PDFLink{SpaceID: c.Space.ID, RevisionID: c.Rev.ID, Page: req.Page, Only: req.Only,
		Name: pdfFileName(name), Expires: p.s.now().Add(PDFLinkTTL).Unix()}
	if c.ChangeRequest != nil {
		l.ChangeRequestID = c.ChangeRequest.ID
	}
	key, err := p.s.downloadKey(ctx)
	if err != nil {
		return PDFLink{}, err
	}
	l.Signature = base64.RawURLEncoding.EncodeToString(l.mac(key))
	return l, nil
}

// Render checks a PDF link and sets its PDF. A link past its expiry, or
// whose signature does not match, is refused with EFORBIDDEN; a space
// deleted since is ENOTFOUND.
func (p *PDFs) Render(ctx context.Context, l PDFLink) ([]byte, error) {
	denied := quire.Errorf(quire.EFORBIDDEN, "the PDF link is invalid or has expired; ask for the PDF again for a fresh link")
	if p.s.now().Unix() >= l.Expires {
		return nil, denied
	}
	sig, err := decodeSignature(l.Signature)
	if err != nil {
		return nil, denied
	}
	key, err := p.s.downloadKey(ctx)
	if err != nil {
		return nil, err
	}
	if !hmac.Equal(sig, l.mac(key)) {
		return nil, denied
	}
	c, err := p.s.Content(ctx, ContentRef{SpaceID: l.SpaceID, Revision: l.RevisionID})
	if err != nil {
		return nil, err
	}
	if c.Space.DeletedAt != nil {
		return nil, quire.NotFound("space")
	}
	book := &pdf.Book{Title: c.Space.Title, Operations: p.s.OperationCards(c.Space.OrgID)}
	if l.ChangeRequestID != "" {
		cr, err := p.s.ChangeRequest(ctx, l.SpaceID, l.ChangeRequestID)
		if err != nil {
			return nil, err
		}
		book.Subtitle = "Change request #" + strconv.Itoa(cr.Number)
		if cr.Subject != "" {
			book.Subtitle += ": " + cr.Subject
		}
	}
	if book.Pages, err = p.pages(ctx, c.Snapshot, l.Page, l.Only); err != nil {
		return nil, err
	}
	files, err := c.Snapshot.Files(ctx)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*quire.File, len(files))
	for _, f := range files {
		byID[f.ID] = f
	}
	book.FileID = func(path string) string {
		if f := fileNamed(byID, path); f != nil {
			return f.ID
		}
		return ""
	}
	select {
	case p.slots <- struct{}{}:
		defer func() { <-p.slots }()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	var buf bytes.Buffer
	open := func(ctx context.Context, id string) (string, io.ReadCloser, error) {
		f, err := c.File(ctx, id)
		if err != nil {
			return "", nil, err
		}
		r, _, err := p.s.OpenBlob(ctx, f.Blob)
		return f.ContentType, r, err
	}
	if err := pdf.Render(ctx, &buf, book, p.fonts, open); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// pages reads the pages a PDF shows, in tree order: every page, or the
// page named with the pages below it, or that page alone.
func (p *PDFs) pages(ctx context.Context, snap *content.Snapshot, pageID string, only bool) ([]pdf.Page, error) {
	tree, err := snap.Tree(ctx)
	if err != nil {
		return nil, err
	}
	if pageID != "" {
		n := findTreeNode(tree, pageID)
		if n == nil {
			return nil, quire.NotFound("page")
		}
		tree = []*content.TreeNode{n}
		if only {
			tree = []*content.TreeNode{{Page: n.Page, Path: n.Path}}
		}
	}
	var out []pdf.Page
	var walk func(nodes []*content.TreeNode, depth int) error
	walk = func(nodes []*content.TreeNode, depth int) error {
		for _, n := range nodes {
			pg, err := p.page(ctx, snap, n.Page, depth)
			if err != nil {
				return err
			}
			out = append(out, pg)
			if err := walk(n.Children, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return out, walk(tree, 0)
}

// page reads one page of a PDF.
func (p *PDFs) page(ctx context.Context, snap *content.Snapshot, rp *quire.RevisionPage, depth int) (pdf.Page, error) {
	out := pdf.Page{ID: rp.ID, Title: rp.Title, Emoji: rp.Emoji, Description: rp.Description, Depth: depth}
	switch rp.Type {
	case quire.PageGroup:
		return out, nil
	case quire.PageLink:
		out.Href = rp.Href
		return out, nil
	}
	raw, err := snap.Document(ctx, rp)
	if err != nil {
		return out, err
	}
	out.Body = document.New()
	if raw != nil {
		if out.Body, err = document.ParseStored(raw); err != nil {
			return out, err
		}
	}
	return out, nil
}

// findTreeNode returns the node of the page id in the tree, or nil.
func findTreeNode(nodes []*content.TreeNode, id string) *content.TreeNode {
	for _, n := range nodes {
		if n.Page.ID == id {
			return n
		}
		if f := findTreeNode(n.Children, id); f != nil {
			return f
		}
	}
	return nil
}

// pdfFileName makes a file name from a title: letters and digits kept,
// runs of anything else one dash, and .pdf.
func pdfFileName(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range title {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
		if b.Len() > 80 {
			break
		}
	}
	if b.Len() == 0 {
		b.WriteString("content")
	}
	return b.String() + ".pdf"
}

// mac computes the link's HMAC-SHA256 under key.
func (l PDFLink) mac(key []byte) []byte {
	return linkMAC(key, "quire pdf link v1", l.SpaceID, l.RevisionID, l.ChangeRequestID, l.Page,
		strconv.FormatBool(l.Only), strconv.FormatInt(l.Expires, 10))
}

// Path returns the link's path below the API root, escaped:
// pdfs/{space}/{revision}/{name}.
func (l PDFLink) Path() string {
	return pdfsSegment + "/" + url.PathEscape(l.SpaceID) + "/" + url.PathEscape(l.RevisionID) + "/" + url.PathEscape(l.Name)
}

// Query returns the link's query: what it shows, its expiry and its
// signature.
func (l PDFLink) Query() string {
	q := url.Values{}
	if l.ChangeRequestID != "" {
		q.Set("changeRequest", l.ChangeRequestID)
	}
	if l.Page != "" {
		q.Set("page", l.Page)
	}
	if l.Only {
		q.Set("only", "true")
	}
	q.Set("expires", strconv.FormatInt(l.Expires, 10))
	q.Set("signature", l.Signature)
	return q.Encode()
}
