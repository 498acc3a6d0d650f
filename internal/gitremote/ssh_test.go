package gitremote_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"quire/internal/gitremote"
)

// sshServer is an ssh server on 127.0.0.1 that runs git upload-pack and
// receive-pack for the repositories it is asked for, after checking a
// password.
type sshServer struct {
	port    int
	hostKey ssh.PublicKey
}

// serveSSH starts an sshServer taking user and password, stopped when the
// test ends.
func serveSSH(t *testing.T, user, password string) *sshServer {
	t.Helper()
	gitPath := mustGit(t)
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &ssh.ServerConfig{PasswordCallback: func(c ssh.ConnMetadata, p []byte) (*ssh.Permissions, error) {
		if c.User() == user && string(p) == password {
			return nil, nil
		}
		return nil, errors.New("denied")
	}}
	cfg.AddHostKey(signer)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				serveSSHConn(conn, cfg, gitPath)
			}()
		}
	}()
	return &sshServer{port: ln.Addr().(*net.TCPAddr).Port, hostKey: signer.PublicKey()}
}

// serveSSHConn answers the exec requests of one connection.
func serveSSHConn(conn net.Conn, cfg *ssh.ServerConfig, gitPath string) {
	defer conn.Close()
	_, chans, reqs, err := ssh.NewServerConn(conn, cfg)
	if err != nil {
		return
	}
	go ssh.DiscardRequests(reqs)
	for nc := range chans {
		if nc.ChannelType() != "session" {
			nc.Reject(ssh.UnknownChannelType, "only sessions")
			continue
		}
		ch, chReqs, err := nc.Accept()
		if err != nil {
			return
		}
		go func() {
			defer ch.Close()
			for req := range chReqs {
				if req.Type != "exec" {
					req.Reply(false, nil)
					continue
				}
				var p struct{ Command string }
				if ssh.Unmarshal(req.Payload, &p) != nil {
					req.Reply(false, nil)
					return
				}
				req.Reply(true, nil)
				status := runGit(ch, gitPath, p.Command)
				ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{status}))
				return
			}
		}()
	}
}

// runGit runs "git-upload-pack '<path>'" or "git-receive-pack '<path>'"
// on the channel and returns its exit status.
func runGit(ch ssh.Channel, gitPath, command string) uint32 {
	service, arg, ok := strings.Cut(command, " ")
	service, known := strings.CutPrefix(service, "git-")
	if !ok || !known || (service != "upload-pack" && service != "receive-pack") {
		return 1
	}
	cmd := exec.Command(gitPath, service, strings.Trim(arg, "'"))
	cmd.Stdout, cmd.Stderr = ch, ch.Stderr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 1
	}
	if err := cmd.Start(); err != nil {
		return 1
	}
	go func() { io.Copy(stdin, ch); stdin.Close() }()
	if err := cmd.Wait(); err != nil {
		return 1
	}
	return 0
}

func TestSSH(t *testing.T) {
	r := seededRepo(t, seed)
	srv := serveSSH(t, "git", "secret")
	var checked []string
	var mu sync.Mutex
	rem := newRemote(nil, gitremote.Options{SSHHostKey: func(host string, remote net.Addr, key ssh.PublicKey) error {
		mu.Lock()
		checked = append(checked, host)
		mu.Unlock()
		return ssh.FixedHostKey(srv.hostKey)(host, remote, key)
	}})
	ctx := context.Background()
	url := fmt.Sprintf("ssh://git:secret@127.0.0.1:%d%s", srv.port, r.dir)

	co, err := rem.Fetch(ctx, url, "main", "docs/guide")
	if err != nil {
		t.Fatal(err)
	}
	wantFiles(t, "over ssh", co.Files, map[string]string{"a.md": "A\n", "b/c.txt": "C\n"})

	oid, pushed, err := rem.Push(ctx, url, "main", "docs", gitremote.Files{"x.md": []byte("X")}, "Over ssh")
	if err != nil || !pushed {
		t.Fatalf("push: %v %v", pushed, err)
	}
	if got := git(t, r.dir, "rev-parse", "main"); got != oid {
		t.Errorf("main at %s, want %s", got, oid)
	}
	mu.Lock()
	if want := fmt.Sprintf("127.0.0.1:%d", srv.port); len(checked) == 0 || checked[0] != want {
		t.Errorf("host keys checked for %v, want %s", checked, want)
	}
	mu.Unlock()

	_, err = rem.Fetch(ctx, fmt.Sprintf("ssh://git:notsecret@127.0.0.1:%d%s", srv.port, r.dir), "main", "")
	wantInvalid(t, "wrong password", err, "url", gitremote.ErrAuth)
	noSecret(t, "wrong password", err.Error())

	other := newRemote(nil, gitremote.Options{SSHHostKey: ssh.FixedHostKey(mustKey(t))})
	_, err = other.Fetch(ctx, url, "main", "")
	wantInvalid(t, "unknown host key", err, "url", gitremote.ErrUnreachable)
}

// mustKey is a fresh public key.
func mustKey(t *testing.T) ssh.PublicKey {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestSSHServerThatNeverAnswers(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	var wg sync.WaitGroup
	t.Cleanup(func() { close(release); ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() { defer wg.Done(); <-release; c.Close() }()
		}
	}()
	rem := newRemote(nil, gitremote.Options{Timeout: 100 * time.Millisecond, SSHHostKey: ssh.InsecureIgnoreHostKey()})
	u := fmt.Sprintf("ssh://git@127.0.0.1:%d/repo.git", ln.Addr().(*net.TCPAddr).Port)
	_, err = rem.Fetch(context.Background(), u, "", "")
	wantInvalid(t, "silent server", err, "url", gitremote.ErrUnreachable)
}
