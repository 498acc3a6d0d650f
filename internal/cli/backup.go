package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"quire/internal/blob"
	"quire/internal/store"
)

// backupSynopsis is the first line of backup's usage.
const backupSynopsis = "quire backup [--data DIR] [--database URL] [--blobs URL] FILE"

// runBackup writes an archive of the database, the blobs and the server's
// keys to FILE, replacing it only once the archive is whole, and prints
// what it holds as JSON.
func runBackup(ctx context.Context, args []string, env Env) error {
	var sc StoreConfig
	fs := newFlagSet("backup")
	sc.register(fs, env.Getenv)
	file, err := parseFileArg(fs, backupSynopsis, args)
	if err != nil {
		return err
	}
	if err := sc.Validate(); err != nil {
		return usageError{err: err}
	}
	// Nothing is made where the server keeps nothing: a wrong --data
	// would otherwise back up an empty directory.
	if sc.DatabaseURL == "" {
		if _, err := os.Stat(filepath.Join(sc.DataDir, store.SQLiteFile)); err != nil {
			return fmt.Errorf("no database to back up in %s: %w", sc.DataDir, err)
		}
	}
	if sc.DatabaseURL != "" && sc.BlobURL == "" {
		if _, err := os.Stat(filepath.Join(sc.DataDir, "blobs")); err != nil {
			return fmt.Errorf("no files to back up in %s (give the server's --data, or --blobs): %w", sc.DataDir, err)
		}
	}
	snap, err := store.OpenSnapshot(ctx, sc.store())
	if err != nil {
		return fmt.Errorf("reading the database: %w", err)
	}
	defer snap.Close()
	blobs, err := blob.Open(ctx, sc.BlobURL, sc.DataDir)
	if err != nil {
		return err
	}
	defer blobs.Close()

	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".*")
	if err != nil {
		return fmt.Errorf("creating the archive: %w", err)
	}
	defer os.Remove(tmp.Name()) // gone once renamed
	w := bufio.NewWriterSize(tmp, 1<<20)
	m, err := snap.Write(ctx, blobs, w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = tmp.Sync()
	}
	if err = errors.Join(err, tmp.Close()); err != nil {
		return fmt.Errorf("writing the archive: %w", err)
	}
	info, err := os.Stat(tmp.Name())
	if err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("writing the archive: %w", err)
	}
	return printJSON(env.Stdout, struct {
		File          string    `json:"file"`
		Engine        string    `json:"engine"`
		SchemaVersion int64     `json:"schemaVersion"`
		CreatedAt     time.Time `json:"createdAt"`
		Tables        int       `json:"tables"`
		Rows          int64     `json:"rows"`
		Jobs          int64     `json:"jobs"`
		Blobs         int64     `json:"blobs"`
		BlobBytes     int64     `json:"blobBytes"`
		Bytes         int64     `json:"bytes"`
	}{file, m.Engine, m.SchemaVersion, m.CreatedAt, len(m.Tables), m.Rows(), m.Jobs.Rows,
		m.Blobs.Count, m.Blobs.Bytes, info.Size()})
}

// parseFileArg parses args into fs around one positional FILE, given
// before or after the flags.
func parseFileArg(fs *flag.FlagSet, synopsis string, args []string) (string, error) {
	var file string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		file, args = args[0], args[1:]
	}
	usage := func(w io.Writer) { printUsage(w, synopsis, fs) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return "", helpRequest{usage}
		}
		return "", usageError{err: err, usage: usage}
	}
	rest := fs.Args()
	if file == "" && len(rest) > 0 {
		file, rest = rest[0], rest[1:]
	}
	if len(rest) > 0 {
		return "", usageError{err: fmt.Errorf("unexpected argument %q", rest[0]), usage: usage}
	}
	if strings.TrimSpace(file) == "" {
		return "", usageError{err: errors.New("the archive FILE is required"), usage: usage}
	}
	return file, nil
}
