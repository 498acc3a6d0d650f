package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"quire/internal/service"
)

// adminTokenFile is the name, in the data directory, of the file holding
// the token of the admin user created on first start.
const adminTokenFile = "admin-token"

// bootstrapper is what first-start bootstrapping needs of the service.
type bootstrapper interface {
	IsFresh(ctx context.Context) (bool, error)
	Bootstrap(ctx context.Context, in service.BootstrapInput) (*service.BootstrapResult, error)
}

// setupLinker makes the one-time link the first admin sets a password
// with.
type setupLinker interface {
	SetupLink(ctx context.Context, userID string) (string, error)
}

// bootstrapIfFresh creates the first organization and its admin user when
// the database holds no user, then shows on stderr a one-time link with
// which the admin sets a password in the browser, and the admin's API
// token, kept in the data directory for scripts. It does nothing on a
// database already in use.
//
// Replicas sharing one database may start together and all see it fresh.
// Bootstrap runs in one transaction, so at most one of them commits when
// they create the same admin email; a loser sees its Bootstrap fail, finds
// the database no longer fresh, and goes on as a later start would.
func bootstrapIfFresh(ctx context.Context, b bootstrapper, links setupLinker, cfg Config, log *slog.Logger, stderr io.Writer) error {
	fresh, err := b.IsFresh(ctx)
	if err != nil {
		return fmt.Errorf("checking for an empty database: %w", err)
	}
	if !fresh {
		return nil
	}
	res, err := b.Bootstrap(ctx, service.BootstrapInput{
		OrgTitle: cfg.OrgTitle,
		Email:    cfg.AdminEmail,
		Name:     cfg.AdminName,
	})
	if err != nil {
		if fresh, ferr := b.IsFresh(ctx); ferr == nil && !fresh {
			log.InfoContext(ctx, "database bootstrapped by another process", "err", err)
			return nil
		}
		return fmt.Errorf("bootstrapping: %w", err)
	}
	log.InfoContext(ctx, "bootstrapped", "organization", res.Organization, "user", res.User, "email", cfg.AdminEmail)

	if link, err := links.SetupLink(ctx, res.User); err != nil {
		// The token still lets the admin in; an administrator can make a
		// reset link later.
		log.ErrorContext(ctx, "making the admin's setup link", "err", err)
	} else {
		fmt.Fprintf(stderr, "quire: set the admin password at %s (single use, valid for 24 hours)\n", link)
	}
	path := filepath.Join(cfg.DataDir, adminTokenFile)
	if err := writeSecret(path, res.Token); err != nil {
		// The token is shown anyway: it exists nowhere else.
		log.ErrorContext(ctx, "writing the admin token", "path", path, "err", err)
		fmt.Fprintf(stderr, "quire: admin API token: %s\n", res.Token)
		return nil
	}
	fmt.Fprintf(stderr, "quire: admin API token: %s (also written to %s)\n", res.Token, path)
	return nil
}

// writeSecret replaces the file at path with secret and a newline, readable
// by its owner only, creating the directory (owner only) if needed. The
// file never exists with other permissions or partial content.
func writeSecret(path, secret string) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := f.Chmod(0o600); err != nil {
		return err
	}
	if _, err := io.WriteString(f, secret+"\n"); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
