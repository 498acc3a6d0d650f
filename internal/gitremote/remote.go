package gitremote

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	"github.com/go-git/go-git/v5/plumbing/transport/server"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"golang.org/x/crypto/ssh"

	"quire/internal/fetch"
)

// Defaults of Options left zero.
const (
	// DefaultTimeout bounds one Fetch or Push, every exchange included:
	// long enough to receive a few gigabytes.
	DefaultTimeout = 15 * time.Minute
	// DefaultResponseTimeout bounds the wait for a server's answer to one
	// request, which for Git includes the server packing the objects.
	DefaultResponseTimeout = time.Minute
	// DefaultMaxFiles bounds the files of a repository tree.
	DefaultMaxFiles = 100_000
	// DefaultMaxBytes bounds the bytes of one transfer as sent and the
	// bytes of the objects it unpacks to (on disk when fetching; pushes
	// hold the current tree in memory, up to twice this).
	DefaultMaxBytes = 8 << 30
	// DefaultAuthorName is the author of pushed commits.
	DefaultAuthorName = "Quire"
	// DefaultAuthorEmail is the author's address on pushed commits.
	DefaultAuthorEmail = "quire@localhost"
)

// Options configures a Remote. The zero value is the safe default.
type Options struct {
	// AllowLocal lets remotes be file:// URLs and hosts on loopback,
	// private and other non-public addresses (tests, and servers meant to
	// reach their own network). A file:// URL reaches any repository the
	// process may read or write.
	AllowLocal bool
	// Guard overrides the address check of package fetch when AllowLocal
	// is false; nil is its public-addresses-only default.
	Guard fetch.Guard
	// HTTPClient replaces the guarded client built by package fetch for
	// http and https remotes. Leave it nil outside tests.
	HTTPClient *http.Client
	// SSHHostKey checks the host key of ssh remotes; nil reads the
	// known_hosts file of the process user (SSH_KNOWN_HOSTS or
	// ~/.ssh/known_hosts) at each connection.
	SSHHostKey ssh.HostKeyCallback
	// Timeout bounds one Fetch, Open or Push.
	Timeout time.Duration
	// TempDir is where Open writes the packs it receives; "" is the
	// system's temporary directory.
	TempDir string
	// MaxFiles bounds the files of a repository tree read or written.
	MaxFiles int
	// MaxBytes bounds the bytes received or sent in one transfer, and
	// the bytes of the objects unpacked from it.
	MaxBytes int64
	// AuthorName and AuthorEmail sign pushed commits.
	AuthorName, AuthorEmail string
	// Now returns the time recorded in pushed commits; nil is time.Now.
	Now func() time.Time
	// Logger receives the cause of each failure, at debug level.
	Logger *slog.Logger
}

// Remote fetches from and pushes to Git remotes under one Options. It is
// safe for concurrent use; build it once and share it.
type Remote struct {
	opts  Options
	guard fetch.Config // the address check, for ssh
	http  transport.Transport
	local transport.Transport // in-process file:// transport, or nil
}

// New returns a Remote configured by opts, with defaults for zero fields.
func New(opts Options) *Remote {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxFiles <= 0 {
		opts.MaxFiles = DefaultMaxFiles
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.AuthorName == "" {
		opts.AuthorName = DefaultAuthorName
	}
	if opts.AuthorEmail == "" {
		opts.AuthorEmail = DefaultAuthorEmail
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	guard := fetch.Config{
		AllowLocal: opts.AllowLocal,
		Guard:      opts.Guard,
		Timeout:    DefaultResponseTimeout,
		Logger:     opts.Logger,
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = fetch.NewHTTPClient(guard)
	}
	r := &Remote{
		opts:  opts,
		guard: guard,
		http:  githttp.NewClientWithOptions(hc, &githttp.ClientOptions{RedirectPolicy: githttp.FollowInitialRedirects}),
	}
	if opts.AllowLocal {
		r.local = server.NewServer(localLoader{open: func(fs billy.Filesystem) storer.Storer {
			return filesystem.NewStorage(fs, cache.NewObjectLRUDefault())
		}})
	}
	return r
}
