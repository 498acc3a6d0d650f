package app

import (
	"bytes"
	"context"
	"encoding/json"
	"html/template"
	"regexp"
	"strings"
	"unicode/utf8"

	"quire/internal/document"
	"quire/internal/quire"
	"quire/internal/reader"
	"quire/internal/service"
)

// maxCommentBody is the longest comment or reply body the composer
// takes, in characters of Markdown.
const maxCommentBody = 10000

// mentions maps the targets of user mentions in a comment's Markdown to
// the members they name, and back. A mention is written in the dialect's
// mention form, its target the member's page in the app:
// [@Ben](/app/o/{org}/members/{userId} "mention"). Every other target
// keeps the default mapping.
type mentions struct {
	// prefix is the address of the organization's members, ending in
	// "/".
	prefix string
	// names holds the display names of the members mentioned, by id,
	// once read.
	names map[string]string
}

// newMentions maps the mentions of members of orgID.
func newMentions(orgID string) *mentions {
	return &mentions{prefix: "/app/o/" + orgID + "/members/", names: map[string]string{}}
}

// RefForTarget reads a member's address in a mention as the member.
func (m *mentions) RefForTarget(target string, use document.TargetUse) (document.Ref, bool) {
	id, ok := strings.CutPrefix(target, m.prefix)
	if use != document.UseMention || !ok || id == "" || strings.ContainsAny(id, "/?#") {
		return document.Ref{}, false
	}
	return document.Ref{Kind: document.RefUser, User: id}, true
}

// TargetForRef writes a mentioned member as their address.
func (m *mentions) TargetForRef(ref document.Ref, use document.TargetUse) (string, bool) {
	if ref.Kind != document.RefUser {
		return "", false
	}
	return m.prefix + ref.User, true
}

// users returns the ids of the users a document mentions, in order, each
// once.
func mentionedUsers(d *document.Document) []string {
	var out []string
	seen := map[string]bool{}
	var walk func([]document.Node)
	walk = func(nodes []document.Node) {
		for _, n := range nodes {
			if n.Type == document.InlineMention {
				if ref, ok := document.RefOf(n.Data["ref"]); ok && ref.Kind == document.RefUser && !seen[ref.User] {
					seen[ref.User] = true
					out = append(out, ref.User)
				}
			}
			walk(n.Nodes)
			walk(n.Fragments)
		}
	}
	walk(d.Nodes)
	return out
}

// commentInput reads the body field of a comment form: Markdown, not
// empty, at most maxCommentBody characters. It answers the document the
// service stores; the service refuses mentions of people who cannot
// read the space.
func commentInput(ctx context.Context, orgID, md string) (service.DocumentInput, error) {
	md = strings.TrimSpace(strings.ReplaceAll(md, "\r\n", "\n"))
	switch {
	case md == "":
		return service.DocumentInput{}, quire.Invalid("body", "must not be empty")
	case utf8.RuneCountInString(md) > maxCommentBody:
		return service.DocumentInput{}, quire.Invalid("body", "must be at most %d characters", maxCommentBody)
	}
	m := newMentions(orgID)
	doc, err := document.FromMarkdown(md, document.WithContext(ctx), document.WithLinkResolver(m))
	if err != nil {
		return service.DocumentInput{}, quire.Invalid("body", "%v", err)
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return service.DocumentInput{}, err
	}
	return service.DocumentInput{JSON: raw}, nil
}

// mentionLabel matches a mention as ToMarkdown writes it, the target for
// its label.
var mentionLabel = regexp.MustCompile(`\[([^\]]*)\]\(([^ )]+) "mention"\)`)

// name returns the display name of a mentioned member, read once; "" for
// someone who is no longer a member.
func (m *mentions) name(ctx context.Context, a *App, orgID, id string) string {
	if n, ok := m.names[id]; ok {
		return n
	}
	n := ""
	if mb, err := a.svc.Member(ctx, orgID, id); err == nil {
		n = mb.User.DisplayName
	}
	m.names[id] = n
	return n
}

// commentBody is a stored body drawn for the thread: its HTML, by the
// reader's renderer, and its Markdown for the edit form.
type commentBody struct {
	HTML     template.HTML
	Markdown string
}

// drawComment draws a stored comment or reply body. Mentions show the
// member's name and lead to their page.
func (a *App) drawComment(ctx context.Context, orgID string, m *mentions, raw json.RawMessage) (commentBody, error) {
	doc, err := document.ParseStored(raw)
	if err != nil {
		return commentBody{}, err
	}
	for _, id := range mentionedUsers(doc) {
		m.name(ctx, a, orgID, id)
	}
	rp := &reader.Page{Document: doc, Resolvers: reader.Resolvers{
		Link: func(ref document.Ref) reader.Target {
			switch ref.Kind {
			case document.RefUser:
				name := m.names[ref.User]
				if name == "" {
					name = "former member"
				}
				return reader.Target{URL: m.prefix + ref.User, Title: "@" + name}
			case document.RefURL:
				return reader.Target{URL: ref.URL}
			}
			return reader.Target{}
		},
		Image: func(ref document.Ref) string {
			if ref.Kind == document.RefURL {
				return ref.URL
			}
			return ""
		},
	}}
	var buf bytes.Buffer
	if _, err := a.reader.RenderBody(&buf, rp); err != nil {
		return commentBody{}, err
	}
	md, err := document.ToMarkdown(doc, document.WithLinkResolver(m))
	if err != nil {
		return commentBody{}, err
	}
	// A mention's Markdown label is its target: write the member's name
	// instead, as the composer does.
	md = mentionLabel.ReplaceAllStringFunc(md, func(s string) string {
		sub := mentionLabel.FindStringSubmatch(s)
		id, ok := strings.CutPrefix(sub[2], m.prefix)
		if !ok || m.names[id] == "" {
			return s
		}
		return mentionMarkdown(m.names[id], sub[2])
	})
	// The reader's body writer escapes every value it writes.
	return commentBody{HTML: template.HTML(buf.String()), Markdown: strings.TrimSpace(md)}, nil
}
