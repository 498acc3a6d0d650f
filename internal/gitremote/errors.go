package gitremote

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/transport"

	"quire/internal/quire"
)

// Causes wrapped by the errors of Fetch and Push, for errors.Is. The
// errors themselves are *quire.Error values whose message names only the
// redacted URL.
var (
	// ErrUnreachable: the remote could not be reached or did not answer
	// as a Git server (refused address, unknown host, closed port,
	// timeout, no repository there); which one is not told.
	ErrUnreachable = errors.New("gitremote: remote unreachable")
	// ErrAuth: the remote refused the credentials, or asked for some.
	ErrAuth = errors.New("gitremote: remote refused the credentials")
	// ErrRefNotFound: the branch or tag does not exist on the remote.
	ErrRefNotFound = errors.New("gitremote: no such ref")
	// ErrTooLarge: the repository or the files pushed exceed a cap.
	ErrTooLarge = errors.New("gitremote: over the size cap")
	// ErrRejected: the remote refused the update of the branch.
	ErrRejected = errors.New("gitremote: push rejected")
)

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
func (r *Remote) failure(ctx context.Context, op string, t *target, cause error) error {
	r.opts.Logger.DebugContext(ctx, "git remote failed", "op", op, "url", t.redacted, "err", scrub(cause, t))
	if ctx.Err() != nil {
		return &quire.Error{Code: quire.EINVALID, Field: fieldURL, Message: "timed out talking to " + t.redacted, Err: ErrUnreachable}
	}
	var qe *quire.Error
	if errors.As(cause, &qe) {
		return qe
	}
	switch {
	case errors.Is(cause, transport.ErrAuthenticationRequired), errors.Is(cause, transport.ErrAuthorizationFailed),
		errors.Is(cause, transport.ErrInvalidAuthMethod), strings.Contains(cause.Error(), sshAuthFailed):
		return &quire.Error{Code: quire.EINVALID, Field: fieldURL, Message: t.redacted + " refused the credentials", Err: ErrAuth}
	case errors.Is(cause, transport.ErrRepositoryNotFound):
		return &quire.Error{Code: quire.EINVALID, Field: fieldURL, Message: "no Git repository at " + t.redacted, Err: ErrUnreachable}
	}
	return &quire.Error{Code: quire.EINVALID, Field: fieldURL, Message: "could not " + op + " " + t.redacted, Err: ErrUnreachable}
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
	return &quire.Error{Code: quire.EINVALID, Field: fieldRef, Message: t.redacted + " has no branch or tag " + strconv.Quote(ref), Err: ErrRefNotFound}
}

// tooLarge is the error of a repository or a push over a cap.
func tooLarge(field, msg string) error {
	return &quire.Error{Code: quire.EINVALID, Field: field, Message: msg, Err: ErrTooLarge}
}
