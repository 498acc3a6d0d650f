package service

import (
	"context"
	"net/url"
	"strconv"
	"strings"

	"quire/internal/document"
)

// downloadsSegment is the first path segment of download links below the
// API root.
const downloadsSegment = "downloads"

// Path returns the link's path below the API root, escaped:
// downloads/{space}/{revision}/{file}/{name}.
func (l DownloadLink) Path() string {
	return downloadsSegment + "/" + url.PathEscape(l.SpaceID) + "/" + url.PathEscape(l.RevisionID) + "/" +
		url.PathEscape(l.FileID) + "/" + url.PathEscape(l.Name)
}

// Query returns the link's query: its expiry and signature.
func (l DownloadLink) Query() string {
	return "expires=" + strconv.FormatInt(l.Expires, 10) + "&signature=" + l.Signature
}

// FileLinks returns the link resolver for a page of c written as
// Markdown: file references become signed download links, which readers
// of the Markdown can fetch, made by sg and turned into URLs by linkURL.
// Links back to files of the same space read back as file references.
func (c *Content) FileLinks(ctx context.Context, sg *DownloadSigner, linkURL func(DownloadLink) string) document.LinkResolver {
	return fileLinks{ctx: ctx, c: c, sg: sg, url: linkURL, targets: downloadTargets{spaceID: c.Space.ID}}
}

// fileLinks writes file references as download links.
type fileLinks struct {
	ctx     context.Context
	c       *Content
	sg      *DownloadSigner
	url     func(DownloadLink) string
	targets downloadTargets
}

// TargetForRef returns the download link of a file of the revision; a
// file the revision does not hold keeps the default (its bare id).
func (r fileLinks) TargetForRef(ref document.Ref, use document.TargetUse) (string, bool) {
	if ref.Kind != document.RefFile || ref.File == "" {
		return "", false
	}
	f, err := r.c.File(r.ctx, ref.File)
	if err != nil {
		return "", false
	}
	return r.url(r.sg.Sign(r.c.Space.ID, r.c.Rev.ID, f)), true
}

// RefForTarget reads download links back as file references.
func (r fileLinks) RefForTarget(target string, use document.TargetUse) (document.Ref, bool) {
	return r.targets.RefForTarget(target, use)
}

// downloadTargets reads the download links of a space's files, as page
// Markdown exports them, back as file references. Other targets, a bare
// file id among them, keep the converter's default mapping.
type downloadTargets struct {
	spaceID string
}

// RefForTarget maps a download link of a file of the space, expired or
// not, on any host, to a reference to the file.
func (d downloadTargets) RefForTarget(target string, use document.TargetUse) (document.Ref, bool) {
	switch use {
	case document.UseImage, document.UseFile, document.UseLink, document.UseEmbed, document.UseOpenAPI, document.UseContentRef:
	default:
		return document.Ref{}, false
	}
	u, err := url.Parse(target)
	if err != nil || !strings.Contains(u.Path, "/"+downloadsSegment+"/") {
		return document.Ref{}, false
	}
	segs := strings.Split(u.Path, "/")
	// …/v1/downloads/{space}/{revision}/{file}/{name}
	n := len(segs)
	if n < 6 || segs[n-5] != downloadsSegment || segs[n-6] != "v1" || segs[n-4] != d.spaceID || segs[n-2] == "" {
		return document.Ref{}, false
	}
	return document.Ref{Kind: document.RefFile, File: segs[n-2]}, true
}

// TargetForRef leaves writing targets to the converter.
func (downloadTargets) TargetForRef(document.Ref, document.TargetUse) (string, bool) {
	return "", false
}

// importOptions are the conversion options of Markdown written into a
// page of the space.
func importOptions(spaceID string) document.Option {
	return document.WithLinkResolver(downloadTargets{spaceID: spaceID})
}
