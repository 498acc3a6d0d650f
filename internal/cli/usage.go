package cli

import (
	"context"
	"io"
)

// mainUsage is the overview printed by "quire help".
const mainUsage = `Quire serves a document API over HTTP.

Usage: quire <command> [flags]

Commands:
  serve                 run the HTTP server; on an empty database, create an
                        organization and an admin user and print its token
  migrate               apply pending database migrations
  backup FILE           write the database, files and keys of a running
                        server to one archive
  restore FILE          load an archive into an empty database and data
                        directory, of either engine
  admin bootstrap       create an organization, its admin user and a token
  admin user create     create a user and a token, optionally in an organization
  admin token create    create a new API token for a user
  export DIR            write an organization (--org ID) or every one (--all)
                        as GitBook repositories, one per space, and a manifest
  import DIR|FILE.zip   read an export back into a new organization
  version               print the version
  healthcheck           exit 0 when the server on --addr answers /healthz
  help [command]        print this help, or a command's

Run 'quire <command> -h' for a command's flags. Every flag with an
environment variable in its description falls back to that variable.
`

func printMainUsage(w io.Writer) { _, _ = io.WriteString(w, mainUsage) }

// runHelp prints the overview, or the usage of the command named by args.
func runHelp(ctx context.Context, args []string, env Env) error {
	if len(args) == 0 {
		printMainUsage(env.Stdout)
		return nil
	}
	return dispatch(ctx, append(append([]string(nil), args...), "-h"), env)
}
