package gitremote

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/transport"

	"quire/internal/quire"
)

// Causes wrapped by the errors of Fetch, Open and Push, for errors.Is. The
// errors themselves are *quire.Error values whose message names only the
// redacted URL, followed by the cause in words.
var (
	// ErrUnreachable: the remote could not be reached or did not answer
	// as a Git server (refused address, unknown host, closed port, no
	// repository there); which one is not told for network remotes, so
	// that errors do not map the network behind the server. ErrTimeout and
	// ErrNotRepository are kinds of it.
	ErrUnreachable = errors.New("gitremote: remote unreachable")
	// ErrTimeout: the operation ran out of time.
	ErrTimeout = errors.New("gitremote: timed out")
	// ErrNotRepository: there is no Git repository at the address (for a
	// local path: the path does not exist, or holds no repository).
	ErrNotRepository = errors.New("gitremote: not a Git repository")
	// ErrAuth: the remote refused the credentials, or asked for some.
	ErrAuth = errors.New("gitremote: authentication refused")
	// ErrRefNotFound: the branch or tag does not exist on the remote.
	ErrRefNotFound = errors.New("gitremote: no such ref")
	// ErrObjectMissing: an object the commit needs is not in the
	// repository (a damaged or incomplete repository).
	ErrObjectMissing = errors.New("gitremote: object missing")
	// ErrTooLarge: the repository or the files pushed exceed a cap.
	ErrTooLarge = errors.New("gitremote: over the size cap")
	// ErrRejected: the remote refused the update of the branch.
	ErrRejected = errors.New("gitremote: push rejected")
)

// cause is the reason of a failure in words, matching one or more of the
// Err values above.
type cause struct {
	text  string
	kinds []error
}

// Error implements error.
func (c *cause) Error() string { return c.text }

// Is matches the kinds of the cause.
func (c *cause) Is(target error) bool {
	for _, k := range c.kinds {
		if k == target {
			return true
		}
	}
	return false
}

// because returns a cause told as text, of the given kinds.
func because(text string, kinds ...error) error { return &cause{text: text, kinds: kinds} }

// fieldURL, fieldRef, fieldDir and fieldFiles name the argument an error
// is about.
const (
	fieldURL   = "url"
	fieldRef   = "ref"
	fieldDir   = "dir"
	fieldFiles = "files"
)

// sshAuthFailed is how golang.org/x/crypto/ssh tells that no
// authentication method was accepted; it has no error value to match.
const sshAuthFailed = "ssh: unable to authenticate"

// failure turns the cause of a failed exchange with the remote t into the
// error shown to the caller, and logs the cause with credentials hidden.
func (r *Remote) failure(ctx context.Context, op string, t *target, err error) error {
	r.opts.Logger.DebugContext(ctx, "git remote failed", "op", op, "url", t.redacted, "err", scrub(err, t))
	msg := "could not " + op + " " + t.redacted
	if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return &quire.Error{Code: quire.EINVALID, Field: fieldURL, Message: msg, Err: timedOut(time.Since(t.began))}
	}
	var qe *quire.Error
	if errors.As(err, &qe) {
		return qe
	}
	var c *cause
	if errors.As(err, &c) {
		return &quire.Error{Code: quire.EINVALID, Field: fieldURL, Message: msg, Err: c}
	}
	switch {
	case errors.Is(err, transport.ErrAuthenticationRequired), errors.Is(err, transport.ErrAuthorizationFailed),
		errors.Is(err, transport.ErrInvalidAuthMethod), strings.Contains(err.Error(), sshAuthFailed):
		return &quire.Error{Code: quire.EINVALID, Field: fieldURL, Message: msg, Err: because("authentication refused", ErrAuth)}
	case errors.Is(err, transport.ErrRepositoryNotFound):
		return &quire.Error{Code: quire.EINVALID, Field: fieldURL, Message: msg,
			Err: because("no Git repository there", ErrNotRepository, ErrUnreachable)}
	}
	return &quire.Error{Code: quire.EINVALID, Field: fieldURL, Message: msg, Err: because("remote unreachable", ErrUnreachable)}
}

// timedOut is the cause of an operation that ran for took and ran out of
// time.
func timedOut(took time.Duration) error {
	return because(fmt.Sprintf("timed out after %d s", int64(took.Round(time.Second)/time.Second)), ErrTimeout, ErrUnreachable)
}

// scrub returns the text of cause with the credentials of t replaced, for
// the log: causes come from libraries that may quote what they were given.
// A user name alone is taken for a token (https://TOKEN@host/repo.git).
func scrub(cause error, t *target) string {
	if cause == nil {
		return ""
	}
	s := cause.Error()
	if t.password != "" {
		s = strings.ReplaceAll(s, t.password, "xxxxx")
	} else if t.user != "" {
		s = strings.ReplaceAll(s, t.user, "xxxxx")
	}
	return s
}

// refNotFound is the error of a ref the remote does not have.
func refNotFound(t *target, ref string) error {
	return &quire.Error{Code: quire.EINVALID, Field: fieldRef, Message: "could not fetch " + t.redacted,
		Err: because("branch or tag "+strconv.Quote(ref)+" not found", ErrRefNotFound)}
}

// objectMissing is the error of an object of the commit that the
// repository does not hold.
func objectMissing(t *target, oid, path string) error {
	what := "object " + oid
	if path != "" {
		what += " of path " + strconv.Quote(path)
	}
	return &quire.Error{Code: quire.EINVALID, Field: fieldURL, Message: "could not fetch " + t.redacted,
		Err: because(what+" missing", ErrObjectMissing)}
}

// tooLarge is the error of a repository or a push over a cap.
func tooLarge(field, msg string) error {
	return &quire.Error{Code: quire.EINVALID, Field: field, Message: msg, Err: ErrTooLarge}
}
