// Package gitremote reads and writes the files of Git repositories that
// live elsewhere: it fetches one commit of a branch or tag and returns the
// files under one directory, and pushes a new tree under a directory as
// one commit on top of a branch. Everything happens in memory (go-git's
// memory storage); nothing is written to disk and no git binary is run.
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
//   - file:// only when Options.AllowLocal is set, served in-process.
//
// Loopback, private and other non-public addresses are refused unless
// Options.AllowLocal is set. Errors name the URL without its user
// information (see Redact) and never carry a credential or the text of
// the underlying failure; the cause is logged at debug level, redacted.
package gitremote
