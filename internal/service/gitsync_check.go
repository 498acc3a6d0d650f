package service

import (
	"net/url"
	"path"
	"strings"

	"quire/internal/gitremote"
	"quire/internal/quire"
)

// remoteURL is a checked remote address.
type remoteURL struct {
	redacted string
	repoName string
}

// checkRemoteURL checks that raw names a Git remote Quire can reach: an
// http, https, ssh or file URL, or the scp-like user@host:path form.
// Errors never repeat the URL, which may hold credentials.
func checkRemoteURL(raw string) (remoteURL, error) {
	if strings.TrimSpace(raw) == "" {
		return remoteURL{}, quire.Invalid("url", "required")
	}
	if len(raw) > 2048 {
		return remoteURL{}, quire.Invalid("url", "at most 2048 characters")
	}
	if strings.ContainsAny(raw, " \t\r\n\x00") {
		return remoteURL{}, quire.Invalid("url", "must not contain spaces or control characters")
	}
	if p, ok := scpLikePath(raw); ok {
		return remoteURL{redacted: gitremote.Redact(raw), repoName: repoName(p)}, nil
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return remoteURL{}, quire.Invalid("url", "is not a repository URL: use https://, http://, ssh:// or user@host:path")
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ssh":
		if u.Host == "" {
			return remoteURL{}, quire.Invalid("url", "names no host")
		}
	case "file":
	default:
		return remoteURL{}, quire.Invalid("url", "unsupported scheme %q: use https, http, ssh or file", u.Scheme)
	}
	return remoteURL{redacted: gitremote.Redact(raw), repoName: repoName(u.Path)}, nil
}

// scpLikePath returns the path of a remote written user@host:path, the
// short form of an ssh URL.
func scpLikePath(raw string) (string, bool) {
	if strings.Contains(raw, "://") {
		return "", false
	}
	at := strings.IndexByte(raw, '@')
	colon := strings.IndexByte(raw, ':')
	if at <= 0 || colon < at+2 || colon == len(raw)-1 {
		return "", false
	}
	return raw[colon+1:], true
}

// repoName is the owner/name of a repository path: its last two
// segments, without ".git".
func repoName(p string) string {
	segs := strings.FieldsFunc(strings.TrimSuffix(strings.TrimSuffix(p, "/"), ".git"), func(r rune) bool { return r == '/' })
	if len(segs) > 2 {
		segs = segs[len(segs)-2:]
	}
	return strings.Join(segs, "/")
}

// checkRef checks a ref name: refs/<kind>/<name>, in the form Git accepts.
func checkRef(ref string) error {
	switch {
	case ref == "":
		return quire.Invalid("ref", "required")
	case len(ref) > 255:
		return quire.Invalid("ref", "at most 255 characters")
	case !strings.HasPrefix(ref, "refs/") || strings.Count(ref, "/") < 2:
		return quire.Invalid("ref", "must be a full ref such as refs/heads/main")
	case strings.Contains(ref, "..") || strings.Contains(ref, "//") || strings.Contains(ref, "@{") ||
		strings.HasSuffix(ref, "/") || strings.HasSuffix(ref, ".") || strings.HasSuffix(ref, ".lock") ||
		strings.ContainsAny(ref, " ~^:?*[\\\x7f"):
		return quire.Invalid("ref", "is not a valid Git ref name")
	}
	for _, c := range ref {
		if c < 0x20 {
			return quire.Invalid("ref", "is not a valid Git ref name")
		}
	}
	return nil
}

// checkProjectDir cleans the project directory: relative, slash-separated,
// inside the repository ("" for its root).
func checkProjectDir(dir string) (string, error) {
	d := strings.Trim(strings.TrimSpace(dir), "/")
	if d == "" || d == "." {
		return "", nil
	}
	if len(d) > 1024 || strings.ContainsAny(d, "\\\x00") {
		return "", quire.Invalid("repoProjectDirectory", "is not a valid directory")
	}
	c := path.Clean(d)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", quire.Invalid("repoProjectDirectory", "must stay inside the repository")
	}
	return c, nil
}
