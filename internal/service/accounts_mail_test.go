package service

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"net"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"testing"
)

// smtpMessage is what the test SMTP server received in one session.
type smtpMessage struct {
	tls      bool
	auth     string
	from, to string
	data     string
}

// testSMTPServer is a tiny SMTP server on 127.0.0.1 that accepts every
// message, offering STARTTLS when given a TLS configuration.
type testSMTPServer struct {
	addr string
	got  chan smtpMessage
}

func startSMTP(t *testing.T, cfg *tls.Config) *testSMTPServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	s := &testSMTPServer{addr: ln.Addr().String(), got: make(chan smtpMessage, 4)}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(c, cfg)
		}
	}()
	return s
}

func (s *testSMTPServer) serve(c net.Conn, cfg *tls.Config) {
	defer c.Close()
	tp := textproto.NewConn(c)
	var m smtpMessage
	_ = tp.PrintfLine("220 test ESMTP")
	for {
		line, err := tp.ReadLine()
		if err != nil {
			return
		}
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO", "HELO":
			if cfg != nil && !m.tls {
				_ = tp.PrintfLine("250-test")
				_ = tp.PrintfLine("250-STARTTLS")
			} else {
				_ = tp.PrintfLine("250-test")
			}
			_ = tp.PrintfLine("250 AUTH PLAIN")
		case "STARTTLS":
			_ = tp.PrintfLine("220 go ahead")
			tc := tls.Server(c, cfg)
			if err := tc.Handshake(); err != nil {
				return
			}
			c, m.tls = tc, true
			tp = textproto.NewConn(tc)
		case "AUTH":
			raw, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(arg, "PLAIN "))
			m.auth = string(raw)
			_ = tp.PrintfLine("235 ok")
		case "MAIL":
			m.from = arg
			_ = tp.PrintfLine("250 ok")
		case "RCPT":
			m.to = arg
			_ = tp.PrintfLine("250 ok")
		case "DATA":
			_ = tp.PrintfLine("354 go on")
			b, err := tp.ReadDotBytes()
			if err != nil {
				return
			}
			m.data = string(b)
			_ = tp.PrintfLine("250 queued")
			s.got <- m
		case "NOOP", "RSET":
			_ = tp.PrintfLine("250 ok")
		case "QUIT":
			_ = tp.PrintfLine("221 bye")
			return
		default:
			_ = tp.PrintfLine("502 no")
		}
	}
}

func TestSMTPMailerUpgradesWithSTARTTLS(t *testing.T) {
	t.Parallel()
	ts := httptest.NewTLSServer(http.NotFoundHandler())
	defer ts.Close()
	pool := x509.NewCertPool()
	pool.AddCert(ts.Certificate())
	srv := startSMTP(t, &tls.Config{Certificates: ts.TLS.Certificates})
	m, err := NewSMTPMailer("smtp://quire:s3cret@"+srv.addr, "Quire <quire@q.example>")
	if err != nil {
		t.Fatal(err)
	}
	m = m.WithTLSConfig(&tls.Config{RootCAs: pool, ServerName: "127.0.0.1"})
	if err := m.Send(t.Context(), "ada@x.io", "Reset your password", "Open:\nhttps://q.example/app/reset/abc\n"); err != nil {
		t.Fatal(err)
	}
	got := <-srv.got
	if !got.tls || got.auth != "\x00quire\x00s3cret" || got.from != "FROM:<quire@q.example>" || got.to != "TO:<ada@x.io>" {
		t.Errorf("session = %+v", got)
	}
	for _, want := range []string{"Subject: Reset your password\n", "From: \"Quire\" <quire@q.example>\n", "https://q.example/app/reset/abc\n"} {
		if !strings.Contains(got.data, want) {
			t.Errorf("message lacks %q:\n%s", want, got.data)
		}
	}
}

func TestSMTPMailerWithoutTLS(t *testing.T) {
	t.Parallel()
	srv := startSMTP(t, nil)
	m, err := NewSMTPMailer("smtp://"+srv.addr, "quire@q.example")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Send(t.Context(), "ada@x.io", "Hi", "body"); err != nil {
		t.Fatal(err)
	}
	if got := <-srv.got; got.tls || got.auth != "" {
		t.Errorf("session = %+v", got)
	}
	for _, bad := range []string{"http://host", "smtp://", "::"} {
		if _, err := NewSMTPMailer(bad, "quire@q.example"); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := NewSMTPMailer("smtp://h:25", "not an address"); err == nil {
		t.Error("bad sender accepted")
	}
}
