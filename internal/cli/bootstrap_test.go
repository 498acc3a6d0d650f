package cli

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"quire/internal/quire"
	"quire/internal/service"
	"quire/internal/store"
)

// fakeBootstrapper answers IsFresh from a script and counts Bootstrap
// calls.
type fakeBootstrapper struct {
	fresh      []bool // answers of successive IsFresh calls
	err        error  // returned by Bootstrap when set
	bootstraps int
}

func (f *fakeBootstrapper) IsFresh(context.Context) (bool, error) {
	v := f.fresh[0]
	if len(f.fresh) > 1 {
		f.fresh = f.fresh[1:]
	}
	return v, nil
}

func (f *fakeBootstrapper) Bootstrap(_ context.Context, in service.BootstrapInput) (*service.BootstrapResult, error) {
	f.bootstraps++
	if f.err != nil {
		return nil, f.err
	}
	return &service.BootstrapResult{Organization: "o1", User: "u1", Token: "tok-" + in.Email}, nil
}

// fakeLinker makes setup links naming the user.
type fakeLinker struct{}

func (fakeLinker) SetupLink(_ context.Context, userID string) (string, error) {
	return "http://q/app/setup/for-" + userID, nil
}

func TestBootstrapIfFresh(t *testing.T) {
	cfg := DefaultConfig()
	cfg.DataDir = filepath.Join(t.TempDir(), "d")
	var stderr bytes.Buffer
	f := &fakeBootstrapper{fresh: []bool{true}}
	if err := bootstrapIfFresh(t.Context(), f, fakeLinker{}, cfg, slog.New(slog.DiscardHandler), &stderr); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(cfg.DataDir, adminTokenFile)
	if want := "quire: set the admin password at http://q/app/setup/for-u1 (single use, valid for 24 hours)\n" +
		"quire: admin API token: tok-admin@localhost (also written to " + path + ")\n"; stderr.String() != want {
		t.Errorf("stderr = %q, want %q", stderr.String(), want)
	}
	raw, err := os.ReadFile(path)
	if err != nil || string(raw) != "tok-admin@localhost\n" {
		t.Errorf("token file = %q, %v", raw, err)
	}
}

func TestBootstrapSkipsUsedDatabase(t *testing.T) {
	cfg := DefaultConfig()
	cfg.DataDir = t.TempDir()
	var stderr bytes.Buffer
	f := &fakeBootstrapper{fresh: []bool{false}}
	if err := bootstrapIfFresh(t.Context(), f, fakeLinker{}, cfg, slog.New(slog.DiscardHandler), &stderr); err != nil {
		t.Fatal(err)
	}
	if f.bootstraps != 0 || stderr.Len() != 0 {
		t.Errorf("bootstrapped a used database: %d calls, stderr %q", f.bootstraps, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(cfg.DataDir, adminTokenFile)); !os.IsNotExist(err) {
		t.Errorf("token file written: %v", err)
	}
}

func TestBootstrapLostRace(t *testing.T) {
	cfg := DefaultConfig()
	cfg.DataDir = t.TempDir()
	var stderr bytes.Buffer
	// Fresh at first, then another process commits first and ours fails.
	f := &fakeBootstrapper{fresh: []bool{true, false}, err: quire.Errorf(quire.ECONFLICT, "email taken")}
	if err := bootstrapIfFresh(t.Context(), f, fakeLinker{}, cfg, slog.New(slog.DiscardHandler), &stderr); err != nil {
		t.Fatalf("lost race is not an error, got %v", err)
	}
	if stderr.Len() != 0 {
		t.Errorf("loser printed %q", stderr.String())
	}
}

func TestBootstrapFailure(t *testing.T) {
	cfg := DefaultConfig()
	cfg.DataDir = t.TempDir()
	f := &fakeBootstrapper{fresh: []bool{true}, err: errors.New("disk full")}
	err := bootstrapIfFresh(t.Context(), f, fakeLinker{}, cfg, slog.New(slog.DiscardHandler), &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("err = %v", err)
	}
}

func TestWriteSecretReplacesWithPrivateFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new", "secret")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeSecret(path, "s3cret"); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v", fi.Mode().Perm())
	}
	if raw, _ := os.ReadFile(path); string(raw) != "s3cret\n" {
		t.Errorf("content = %q", raw)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

// TestBootstrapRacePostgres runs the first-start bootstrap of several
// replicas at the same instant on one empty PostgreSQL database: one
// bootstraps, the others carry on without error.
func TestBootstrapRacePostgres(t *testing.T) {
	sc := StoreConfig{DataDir: t.TempDir(), DatabaseURL: postgresURL(t)}
	const n = 4
	var svcs [n]*service.Service
	for i := range svcs {
		st, err := store.Open(t.Context(), sc.store())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		svcs[i] = service.New(st, service.WithLogger(slog.New(slog.DiscardHandler)))
	}
	var (
		wg       sync.WaitGroup
		start    = make(chan struct{})
		errs     [n]error
		stderrs  [n]bytes.Buffer
		attempts atomic.Int32
	)
	for i := range svcs {
		cfg := DefaultConfig()
		cfg.DataDir = t.TempDir()
		wg.Go(func() {
			<-start
			links := service.NewAccounts(svcs[i], service.AccountsConfig{BaseURL: "http://q"})
			errs[i] = bootstrapIfFresh(context.Background(), &countingBootstrapper{svcs[i], &attempts}, links, cfg, slog.New(slog.DiscardHandler), &stderrs[i])
		})
	}
	close(start)
	wg.Wait()
	shown := 0
	for i := range svcs {
		if errs[i] != nil {
			t.Errorf("replica %d: %v", i, errs[i])
		}
		shown += len(tokenLines(stderrs[i].String()))
	}
	if shown != 1 {
		t.Errorf("%d replicas bootstrapped, want 1", shown)
	}
	t.Logf("%d of %d replicas saw an empty database and tried", attempts.Load(), n)
}

// countingBootstrapper counts the Bootstrap calls reaching a service.
type countingBootstrapper struct {
	*service.Service
	n *atomic.Int32
}

func (c *countingBootstrapper) Bootstrap(ctx context.Context, in service.BootstrapInput) (*service.BootstrapResult, error) {
	c.n.Add(1)
	return c.Service.Bootstrap(ctx, in)
}
