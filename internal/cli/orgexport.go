package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"path/filepath"
	"strings"

	"quire/internal/blob"
	"quire/internal/service"
	"quire/internal/store"
)

// Synopses of export and import.
const (
	exportSynopsis = "quire export DIR (--org ID | --all) [--data DIR] [--database URL] [--blobs URL]"
	importSynopsis = "quire import DIR|FILE.zip [--title TITLE] [--data DIR] [--database URL] [--blobs URL]"
)

// parseWithPath parses args into fs, taking the one positional argument,
// a path, before or after the flags.
func parseWithPath(flags *flag.FlagSet, synopsis string, args []string) (string, error) {
	var p string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		p, args = args[0], args[1:]
	}
	usage := func(w io.Writer) { printUsage(w, synopsis, flags) }
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return "", helpRequest{usage}
		}
		return "", usageError{err: err, usage: usage}
	}
	rest := flags.Args()
	if p == "" && len(rest) > 0 {
		p, rest = rest[0], rest[1:]
	}
	if len(rest) > 0 {
		return "", usageError{err: fmt.Errorf("unexpected argument %q", rest[0]), usage: usage}
	}
	if p == "" {
		return "", usageError{err: errors.New("no directory given"), usage: usage}
	}
	return p, nil
}

// withExports opens the database and the file storage, calls fn with
// the organization export service over them, and closes them.
func withExports(ctx context.Context, sc StoreConfig, env Env, fn func(*service.OrgExports) error) (err error) {
	if err := sc.Validate(); err != nil {
		return usageError{err: err}
	}
	if err := sc.prepare(); err != nil {
		return fmt.Errorf("creating the data directory: %w", err)
	}
	st, err := store.Open(ctx, sc.store())
	if err != nil {
		return fmt.Errorf("opening the database: %w", err)
	}
	defer func() {
		if cerr := st.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("closing the database: %w", cerr)
		}
	}()
	blobs, err := blob.Open(ctx, sc.BlobURL, sc.DataDir)
	if err != nil {
		return fmt.Errorf("opening the file storage: %w", err)
	}
	defer func() {
		if cerr := blobs.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("closing the file storage: %w", cerr)
		}
	}()
	log := newLogger(env.Stderr, DefaultLogFormat, slog.LevelWarn)
	return fn(service.NewOrgExports(service.New(st, service.WithLogger(log), service.WithBlobs(blobs))))
}

// exportedOrg is what export prints of each organization.
type exportedOrg struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Directory string `json:"directory"`
	Spaces    int    `json:"spaces"`
	Members   int    `json:"members"`
}

// runExport writes one organization (--org), or every one (--all, each
// into DIR/<organization id>), as GitBook repositories and a manifest,
// and prints {"organizations":[...]}.
func runExport(ctx context.Context, args []string, env Env) error {
	var sc StoreConfig
	flags := newFlagSet("export")
	sc.register(flags, env.Getenv)
	org := flags.String("org", "", "ID of the organization to export")
	all := flags.Bool("all", false, "export every organization of the server, each into DIR/<organization id>")
	dir, err := parseWithPath(flags, exportSynopsis, args)
	if err != nil {
		return err
	}
	if (*org == "") == !*all {
		return usagef("give --org ID or --all, not both")
	}
	return withExports(ctx, sc, env, func(x *service.OrgExports) error {
		ids, into := []string{*org}, []string{dir}
		if *all {
			if ids, err = x.OrganizationIDs(ctx); err != nil {
				return err
			}
			into = make([]string, len(ids))
			for i, id := range ids {
				into[i] = filepath.Join(dir, id)
			}
		}
		out := []exportedOrg{}
		for i, id := range ids {
			m, err := x.ExportDir(ctx, id, into[i])
			if err != nil {
				return fmt.Errorf("organization %s: %w", id, err)
			}
			out = append(out, exportedOrg{ID: id, Title: m.Organization.Title, Directory: into[i],
				Spaces: len(m.Spaces), Members: len(m.Members)})
		}
		return printJSON(env.Stdout, struct {
			Organizations []exportedOrg `json:"organizations"`
		}{out})
	})
}

// runImport reads an export (a directory, or the zip archive the API
// answers) into a new organization, or one new organization per
// organization of an export of every one, and prints
// {"organizations":[...]} with what each import made.
func runImport(ctx context.Context, args []string, env Env) error {
	var sc StoreConfig
	flags := newFlagSet("import")
	sc.register(flags, env.Getenv)
	title := flags.String("title", "", "title of the new organization, instead of the exported one")
	p, err := parseWithPath(flags, importSynopsis, args)
	if err != nil {
		return err
	}
	fsys, closeExport, err := service.OpenExport(p)
	if err != nil {
		return usageError{err: err}
	}
	defer closeExport()
	roots, err := service.ExportRoots(fsys)
	if err != nil {
		return err
	}
	if *title != "" && len(roots) > 1 {
		return usagef("--title names one organization; %s holds %d", p, len(roots))
	}
	return withExports(ctx, sc, env, func(x *service.OrgExports) error {
		out := []*service.OrgImportResult{}
		for _, root := range roots {
			sub, err := fs.Sub(fsys, root)
			if err != nil {
				return err
			}
			res, err := x.Import(ctx, sub, service.OrgImportOptions{Title: *title})
			if err != nil {
				return fmt.Errorf("%s: %w", filepath.Join(p, root), err)
			}
			out = append(out, res)
		}
		return printJSON(env.Stdout, struct {
			Organizations []*service.OrgImportResult `json:"organizations"`
		}{out})
	})
}
