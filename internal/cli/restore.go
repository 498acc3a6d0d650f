package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"quire/internal/blob"
	"quire/internal/search"
	"quire/internal/store"
	"quire/internal/store/dump"
)

// restoreSynopsis is the first line of restore's usage.
const restoreSynopsis = "quire restore [--data DIR] [--database URL] [--blobs URL] FILE"

// runRestore loads the archive FILE into an empty database and blob
// store, and prints what it restored as JSON. The archive is read through
// and checked before anything is written; a data directory or blob
// directory the restore made is removed again when it fails.
func runRestore(ctx context.Context, args []string, env Env) (err error) {
	var sc StoreConfig
	fs := newFlagSet("restore")
	sc.register(fs, env.Getenv)
	file, err := parseFileArg(fs, restoreSynopsis, args)
	if err != nil {
		return err
	}
	if err := sc.Validate(); err != nil {
		return usageError{err: err}
	}
	a, err := dump.Open(file)
	if err != nil {
		return err
	}
	made := func(dir string) bool {
		_, err := os.Stat(dir)
		return errors.Is(err, os.ErrNotExist)
	}
	dataMade := made(sc.DataDir)
	blobDir := ""
	if sc.BlobURL == "" {
		blobDir = filepath.Join(sc.DataDir, "blobs")
	}
	blobsMade := blobDir != "" && made(blobDir)
	var res store.Restored
	defer func() {
		if err == nil || res.From != 0 {
			return
		}
		// Nothing was loaded: leave the directories as they were.
		if dataMade {
			_ = os.RemoveAll(sc.DataDir)
		} else if blobsMade {
			_ = os.RemoveAll(blobDir)
		}
	}()
	if err := sc.prepare(); err != nil {
		return fmt.Errorf("creating the data directory: %w", err)
	}
	blobs, err := blob.Open(ctx, sc.BlobURL, sc.DataDir)
	if err != nil {
		return err
	}
	res, err = store.Restore(ctx, sc.store(), a, blobs, search.IndexText)
	if err = errors.Join(err, blobs.Close()); err != nil {
		return fmt.Errorf("restoring %s: %w", file, err)
	}
	engine := "sqlite"
	if sc.DatabaseURL != "" {
		engine = "postgres"
	}
	m := a.Manifest
	return printJSON(env.Stdout, struct {
		From         int64     `json:"from"`
		To           int64     `json:"to"`
		Engine       string    `json:"engine"`
		SourceEngine string    `json:"sourceEngine"`
		CreatedAt    time.Time `json:"createdAt"`
		Tables       int       `json:"tables"`
		Rows         int64     `json:"rows"`
		Jobs         int64     `json:"jobs"`
		Blobs        int64     `json:"blobs"`
	}{res.From, res.To, engine, m.Engine, m.CreatedAt, len(m.Tables), m.Rows(), m.Jobs.Rows, m.Blobs.Count})
}
