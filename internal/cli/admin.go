package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/store"
)

// adminUsage is the usage of "quire admin".
const adminUsage = `Usage: quire admin <command> [flags]

Commands:
  bootstrap       create an organization, its admin user and a token
  user create     create a user and a token, optionally in an organization
  user reset-password EMAIL
                  print a one-time link (valid for an hour) with which the
                  user chooses a new password
  token create    create a new API token for a user
  rotate-download-key
                  replace the key signing download links, revoking every
                  link given out (running servers follow within 30 seconds)

They open the database directly and need no running server. Run
'quire admin <command> -h' for a command's flags.
`

func printAdminUsage(w io.Writer) { _, _ = io.WriteString(w, adminUsage) }

// runAdmin dispatches the admin subcommands.
func runAdmin(ctx context.Context, args []string, env Env) error {
	if len(args) == 0 {
		return usageError{err: fmt.Errorf("admin: no command given"), usage: printAdminUsage}
	}
	switch {
	case args[0] == "-h" || args[0] == "-help" || args[0] == "--help":
		return helpRequest{printAdminUsage}
	case args[0] == "bootstrap":
		return runAdminBootstrap(ctx, args[1:], env)
	case len(args) >= 2 && args[0] == "user" && args[1] == "create":
		return runAdminUserCreate(ctx, args[2:], env)
	case len(args) >= 2 && args[0] == "user" && args[1] == "reset-password":
		return runAdminResetPassword(ctx, args[2:], env)
	case len(args) >= 2 && args[0] == "token" && args[1] == "create":
		return runAdminTokenCreate(ctx, args[2:], env)
	case args[0] == "rotate-download-key":
		return runAdminRotateDownloadKey(ctx, args[1:], env)
	}
	return usageError{err: fmt.Errorf("admin: unknown command %q", args[0]), usage: printAdminUsage}
}

// adminCommand is the frame of an admin subcommand: its flags, including
// --data and --database, and how it opens the service.
type adminCommand struct {
	synopsis string
	store    StoreConfig
	fs       *flag.FlagSet
}

func newAdminCommand(name, synopsis string, getenv func(string) string) *adminCommand {
	c := &adminCommand{synopsis: synopsis, fs: newFlagSet(name)}
	c.store.register(c.fs, getenv)
	return c
}

// parse parses args and checks that the flags named in req are set.
func (c *adminCommand) parse(args []string, req ...string) error {
	if err := parseFlags(c.fs, c.synopsis, args); err != nil {
		return err
	}
	if err := required(c.fs, c.synopsis, req...); err != nil {
		return err
	}
	if err := c.store.Validate(); err != nil {
		return usageError{err: err}
	}
	return nil
}

// run opens the store, calls fn with a service over it, and closes the
// store.
func (c *adminCommand) run(ctx context.Context, env Env, fn func(*service.Service) error) (err error) {
	if err := c.store.prepare(); err != nil {
		return fmt.Errorf("creating the data directory: %w", err)
	}
	st, err := store.Open(ctx, c.store.store())
	if err != nil {
		return fmt.Errorf("opening the database: %w", err)
	}
	defer func() {
		if cerr := st.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("closing the database: %w", cerr)
		}
	}()
	log := newLogger(env.Stderr, DefaultLogFormat, slog.LevelWarn)
	return fn(service.New(st, service.WithLogger(log)))
}

// runAdminBootstrap creates an organization, its admin user and a token,
// and prints {"organization":ID,"user":ID,"token":T}.
func runAdminBootstrap(ctx context.Context, args []string, env Env) error {
	c := newAdminCommand("admin bootstrap",
		"quire admin bootstrap --org-title TITLE --email EMAIL --name NAME", env.Getenv)
	var in service.BootstrapInput
	c.fs.StringVar(&in.OrgTitle, "org-title", DefaultOrgTitle, "title of the organization")
	c.fs.StringVar(&in.Email, "email", "", "email of the admin user (required)")
	c.fs.StringVar(&in.Name, "name", "", "display name of the admin user (required)")
	if err := c.parse(args, "org-title", "email", "name"); err != nil {
		return err
	}
	return c.run(ctx, env, func(svc *service.Service) error {
		res, err := svc.Bootstrap(ctx, in)
		if err != nil {
			return err
		}
		return printJSON(env.Stdout, res)
	})
}

// runAdminUserCreate creates a user with a token, as a member of an
// organization when --org is given, and prints {"user":ID,"token":T}.
func runAdminUserCreate(ctx context.Context, args []string, env Env) error {
	c := newAdminCommand("admin user create",
		"quire admin user create --email EMAIL --name NAME [--org ID --role ROLE]", env.Getenv)
	var (
		in   service.CreateUserInput
		role string
	)
	c.fs.StringVar(&in.Email, "email", "", "email of the user (required)")
	c.fs.StringVar(&in.Name, "name", "", "display name of the user (required)")
	c.fs.StringVar(&in.OrgID, "org", "", "ID of an organization to add the user to")
	c.fs.StringVar(&role, "role", "", "role in the organization: admin, create, edit, review, comment or read; empty for a guest")
	if err := c.parse(args, "email", "name"); err != nil {
		return err
	}
	if role != "" && in.OrgID == "" {
		return usageError{err: fmt.Errorf("--role needs --org")}
	}
	in.Role = quire.Role(role)
	if role != "" && !in.Role.Valid() {
		return usageError{err: fmt.Errorf("--role %q: want admin, create, edit, review, comment or read", role)}
	}
	return c.run(ctx, env, func(svc *service.Service) error {
		u, token, err := svc.CreateUser(ctx, in)
		if err != nil {
			return err
		}
		return printJSON(env.Stdout, struct {
			User  string `json:"user"`
			Token string `json:"token"`
		}{u.ID, token})
	})
}

// runAdminTokenCreate issues a new token for a user and prints
// {"token":T}.
func runAdminTokenCreate(ctx context.Context, args []string, env Env) error {
	c := newAdminCommand("admin token create", "quire admin token create --email EMAIL", env.Getenv)
	var email string
	c.fs.StringVar(&email, "email", "", "email of the user (required)")
	if err := c.parse(args, "email"); err != nil {
		return err
	}
	return c.run(ctx, env, func(svc *service.Service) error {
		token, err := svc.CreateToken(ctx, email)
		if err != nil {
			return err
		}
		return printJSON(env.Stdout, struct {
			Token string `json:"token"`
		}{token})
	})
}

// runAdminRotateDownloadKey replaces the download link key and prints
// {"rotated":true}.
func runAdminRotateDownloadKey(ctx context.Context, args []string, env Env) error {
	c := newAdminCommand("admin rotate-download-key", "quire admin rotate-download-key", env.Getenv)
	if err := c.parse(args); err != nil {
		return err
	}
	return c.run(ctx, env, func(svc *service.Service) error {
		if err := svc.RotateDownloadKey(ctx); err != nil {
			return err
		}
		return printJSON(env.Stdout, struct {
			Rotated bool `json:"rotated"`
		}{true})
	})
}

// runAdminResetPassword prints a one-time password reset link for a user,
// as {"link":URL}, whether or not the server sends email.
func runAdminResetPassword(ctx context.Context, args []string, env Env) error {
	c := newAdminCommand("admin user reset-password",
		"quire admin user reset-password EMAIL [--base-url URL]", env.Getenv)
	var email, baseURL string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		email, args = args[0], args[1:]
	}
	c.fs.StringVar(&email, "email", email, "email of the user (or give it first, without the flag)")
	c.fs.StringVar(&baseURL, "base-url", envDefault(env.Getenv, "QUIRE_BASE_URL",
		"http://"+envDefault(env.Getenv, "QUIRE_ADDR", DefaultAddr)),
		"URL the server is reached at, starting the link (env QUIRE_BASE_URL)")
	if err := c.parse(args, "email"); err != nil {
		return err
	}
	return c.run(ctx, env, func(svc *service.Service) error {
		link, err := service.NewAccounts(svc, service.AccountsConfig{BaseURL: baseURL}).ResetLink(ctx, email)
		if err != nil {
			return err
		}
		return printJSON(env.Stdout, struct {
			Link string `json:"link"`
		}{link})
	})
}
