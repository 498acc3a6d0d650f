package sqlite

import (
	"context"
	"database/sql"
	"time"
)

// checkpointEvery is how often the checkpointer copies the write-ahead
// log into the database file.
const checkpointEvery = 200 * time.Millisecond

// writerCheckpointPages is the writer's own automatic checkpoint, in WAL
// pages: a backstop that bounds the log (at 4 KiB pages, 64 MiB) should
// the checkpointer fall behind. SQLite's default is 1,000.
const writerCheckpointPages = "16384"

// checkpointer copies the write-ahead log back into the database file
// from a connection of its own, in the background. With SQLite's default,
// the commit that takes the log past 1,000 pages runs the checkpoint
// itself, holding the one writer connection through the copy and the
// file's fsync while every other write waits. A passive checkpoint
// blocks neither writers nor readers, so it is moved off the writer.
type checkpointer struct {
	db     *sql.DB
	cancel context.CancelFunc
	done   chan struct{}
}

// startCheckpointer opens a connection to the database at path and
// checkpoints from it every checkpointEvery until close.
func startCheckpointer(ctx context.Context, path string) (*checkpointer, error) {
	// A connection opened as the writer's is, but used only for this.
	db, err := openWriter(ctx, path)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	c := &checkpointer{db: db, cancel: cancel, done: make(chan struct{})}
	go c.run(ctx)
	return c, nil
}

// run checkpoints on every tick until ctx ends. A failed checkpoint (the
// database busy past the timeout) is left to the next tick, or to the
// writer's backstop.
func (c *checkpointer) run(ctx context.Context) {
	defer close(c.done)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_, _ = c.db.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)")
		}
	}
}

// close stops the checkpointer and closes its connection.
func (c *checkpointer) close() error {
	c.cancel()
	<-c.done
	return c.db.Close()
}
