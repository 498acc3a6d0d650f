package gitremote

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
	"golang.org/x/crypto/ssh"

	"quire/internal/fetch"
)

// errNoAddress is the cause when no address of a host may be dialled.
var errNoAddress = errors.New("no address of the host may be dialled")

// connection is what one operation needs to open sessions on a remote:
// the transport, the endpoint (for ssh pinned to a checked address) and
// the credentials. go-git's package-wide protocol registry is never used.
type connection struct {
	transport transport.Transport
	endpoint  *transport.Endpoint
	auth      transport.AuthMethod
}

// connect picks the transport of t and, for ssh, resolves and checks the
// host. The returned error is the cause, for the log.
func (r *Remote) connect(ctx context.Context, t *target) (*connection, error) {
	ep := *t.endpoint
	switch t.scheme {
	case schemeHTTP, schemeHTTPS:
		c := &connection{transport: r.http, endpoint: &ep}
		if t.user != "" || t.password != "" {
			c.auth = &githttp.BasicAuth{Username: t.user, Password: t.password}
		}
		return c, nil
	case schemeSSH:
		return r.connectSSH(ctx, t, &ep)
	case schemeFile:
		if r.local == nil {
			return nil, errLocal
		}
		return &connection{transport: r.local, endpoint: &ep}, nil
	}
	return nil, errLocal
}

// errLocal is the cause of a file:// remote refused.
var errLocal = errors.New("file remotes need AllowLocal")

// connectSSH resolves the host of an ssh remote once, keeps the first
// address the guard allows, and points the endpoint at that address so
// the ssh client dials exactly what was checked. The host key is still
// checked against the host name as written in the URL.
func (r *Remote) connectSSH(ctx context.Context, t *target, ep *transport.Endpoint) (*connection, error) {
	hostPort := net.JoinHostPort(ep.Host, strconv.Itoa(ep.Port))
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(ep.Host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		addrs, err = net.DefaultResolver.LookupNetIP(ctx, "ip", ep.Host)
		if err != nil {
			return nil, err
		}
	}
	picked := false
	for _, a := range addrs {
		ap := netip.AddrPortFrom(a.Unmap(), uint16(ep.Port))
		if r.guard.Check(ap) == nil {
			ep.Host = ap.Addr().String()
			picked = true
			break
		}
	}
	if !picked {
		return nil, errNoAddress
	}
	hostKey := r.opts.SSHHostKey
	return &connection{
		transport: gitssh.NewClient(nil),
		endpoint:  ep,
		auth: &sshAuth{
			user:     t.user,
			password: t.password,
			hostKey: func(_ string, remote net.Addr, key ssh.PublicKey) error {
				check := hostKey
				if check == nil {
					var err error
					if check, err = gitssh.NewKnownHostsCallback(); err != nil {
						return err
					}
				}
				return check(hostPort, remote, key)
			},
		},
	}, nil
}

// sshAuth authenticates to an ssh remote with a password, or with none
// when the URL carries none. It implements go-git's ssh AuthMethod.
type sshAuth struct {
	user, password string
	hostKey        ssh.HostKeyCallback
}

// Name implements transport.AuthMethod.
func (a *sshAuth) Name() string { return "ssh-password" }

// String implements transport.AuthMethod; it never shows the password.
func (a *sshAuth) String() string { return "user: " + a.user + ", name: " + a.Name() }

// ClientConfig implements go-git's ssh AuthMethod.
func (a *sshAuth) ClientConfig() (*ssh.ClientConfig, error) {
	c := &ssh.ClientConfig{User: a.user, HostKeyCallback: a.hostKey, Timeout: fetch.DefaultConnectTimeout}
	if a.password != "" {
		c.Auth = []ssh.AuthMethod{ssh.Password(a.password)}
	}
	return c, nil
}

// uploadPack opens an upload-pack session on c within ctx.
func (c *connection) uploadPack(ctx context.Context) (transport.UploadPackSession, error) {
	return open(ctx, func() (transport.UploadPackSession, error) {
		return c.transport.NewUploadPackSession(c.endpoint, c.auth)
	})
}

// receivePack opens a receive-pack session on c within ctx.
func (c *connection) receivePack(ctx context.Context) (transport.ReceivePackSession, error) {
	return open(ctx, func() (transport.ReceivePackSession, error) {
		return c.transport.NewReceivePackSession(c.endpoint, c.auth)
	})
}

// open runs newSession, which for ssh connects and shakes hands without
// looking at any context, and gives up when ctx ends first; a session
// that opens after that is closed at once.
func open[S transport.Session](ctx context.Context, newSession func() (S, error)) (S, error) {
	type result struct {
		s   S
		err error
	}
	done := make(chan result, 1)
	go func() {
		s, err := newSession()
		done <- result{s, err}
	}()
	select {
	case res := <-done:
		return res.s, res.err
	case <-ctx.Done():
		go func() {
			if res := <-done; res.err == nil {
				res.s.Close()
			}
		}()
		var zero S
		return zero, ctx.Err()
	}
}
