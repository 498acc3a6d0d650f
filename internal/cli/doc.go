// Package cli is Quire's command line: serve, migrate, the admin commands
// and version. Each command parses its own flags, with QUIRE_* environment
// variables as fallbacks, and reports errors as "quire: <message>".
package cli
