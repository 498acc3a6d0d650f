// Package gitremote reads and writes the files of Git repositories that
// live elsewhere: it fetches one commit of a branch or tag and returns the
// files under one directory, and pushes a new tree under a directory as
// one commit on top of a branch. No git binary is run. A fetch asks for
// the one commit (a shallow pack of depth 1 where the server can send
// one), writes the pack to a temporary directory as it arrives, indexes it
// there and reads the tree from it: large files stay on disk and are read
// as streams (Checkout.Open), so memory does not grow with the
// repository; Checkout.Close removes the directory. A file:// repository
// (bare, or a work tree) is read in place. A push reads the branch's
// current commit into memory and sends one pack.
//
// Supported remotes:
//
//   - https:// and http://, with optional basic-auth credentials in the
//     URL (https://user:token@host/repo.git). Connections go through the
//     guarded HTTP client of package fetch.
//   - ssh:// and scp-like user@host:path. Authentication is a password
//     given in the URL (ssh://user:password@host/repo.git) or none; keys
//     and agents are not used. The host key is checked with the callback
//     given in Options, or else the known_hosts file of the process user.
//     The host name is resolved once, every address is checked with the
//     guard of package fetch, and the connection is made to the address
//     checked, so a name cannot answer differently in between.
//   - file:// only when Options.AllowLocal is set: read in place, and
//     pushed to in-process.
//
// Loopback, private and other non-public addresses are refused unless
// Options.AllowLocal is set. Errors name the URL without its user
// information (see Redact) and never carry a credential or the text of
// the underlying failure; they name the cause in words (timed out,
// authentication refused, branch not found, object missing, no
// repository at a local path), but not which network failure made a
// remote unreachable. The underlying failure is logged at debug level,
// redacted.
package gitremote
