package document

import (
	"strings"

	"quire/internal/quire"
)

// Reference kinds.
const (
	RefURL             = quire.RefURL
	RefFile            = quire.RefFile
	RefPage            = quire.RefPage
	RefAnchor          = quire.RefAnchor
	RefUser            = quire.RefUser
	RefCollection      = quire.RefCollection
	RefSpace           = quire.RefSpace
	RefReusableContent = quire.RefReusableContent
	RefOpenAPI         = quire.RefOpenAPI
)

// Ref is a content reference (the schema's ContentRef): a URL, a file, a
// page, an anchor, and so on. Only the fields of its Kind are set. It is
// the domain's type, so references pass between documents, pages and
// links without conversion.
type Ref = quire.ContentRef

// TargetUse tells a LinkResolver where a Markdown target appears.
type TargetUse int

// Places where a Markdown target appears.
const (
	UseLink       TargetUse = iota // an inline link or button
	UseMention                     // an inline page mention
	UseImage                       // an image source (block or inline) or a card's cover
	UseFile                        // a file block or drawing source
	UseContentRef                  // a content-ref (page link) block or a card's target
	UseEmbed                       // an embed block's URL
	UseOpenAPI                     // an OpenAPI block's spec source (a file or URL)
)

// LinkResolver maps Markdown link targets to content references and back,
// for example relative page paths to page ids. Returning false falls back
// to the default mapping described in the package documentation.
type LinkResolver interface {
	// RefForTarget returns the reference for a Markdown target.
	RefForTarget(target string, use TargetUse) (Ref, bool)
	// TargetForRef returns the Markdown target for a reference.
	TargetForRef(ref Ref, use TargetUse) (string, bool)
}

// HasScheme reports whether s starts with a URL scheme such as "https:".
func HasScheme(s string) bool {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := s[j]
		isAlpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !isAlpha && (j == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// refForTarget maps a Markdown target to a reference.
func (o *options) refForTarget(target string, use TargetUse) Ref {
	r := o.resolveTarget(target, use)
	if o.targets != nil {
		if _, seen := o.targets[r]; !seen {
			o.targets[r] = target
		}
	}
	return r
}

func (o *options) resolveTarget(target string, use TargetUse) Ref {
	if o.resolver != nil {
		if r, ok := o.resolver.RefForTarget(target, use); ok {
			return r
		}
	}
	switch {
	case use == UseLink && strings.HasPrefix(target, "#"):
		return Ref{Kind: RefAnchor, Anchor: target[1:]}
	case (use == UseImage || use == UseFile || use == UseOpenAPI) && !HasScheme(target):
		return Ref{Kind: RefFile, File: target}
	case use == UseFile:
		return Ref{Kind: RefFile, File: target}
	}
	return Ref{Kind: RefURL, URL: target}
}

// targetForRef maps a reference to a Markdown target.
func (o *options) targetForRef(r Ref, use TargetUse) string {
	if o.resolver != nil {
		if t, ok := o.resolver.TargetForRef(r, use); ok {
			return t
		}
	}
	switch r.Kind {
	case RefURL:
		return r.URL
	case RefFile:
		return r.File
	case RefPage:
		return r.Page
	case RefAnchor:
		return r.Page + "#" + r.Anchor
	case RefUser:
		return r.User
	case RefCollection:
		return r.Collection
	case RefSpace:
		return r.Space
	case RefReusableContent:
		return r.ReusableContent
	case RefOpenAPI:
		return r.Spec
	}
	return ""
}

// RefOf reads a content reference held in a node's data (a Ref, or the
// JSON object of one), for renderers that resolve references themselves.
func RefOf(v any) (Ref, bool) { return refValue(v) }
