package service

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/mail"
	"net/smtp"
	"net/url"
	"strings"
	"time"

	"quire/internal/quire"
)

// Mailer sends plain text email.
type Mailer interface {
	// Send sends one message to one address.
	Send(ctx context.Context, to, subject, body string) error
}

// SMTPMailer sends email through an SMTP server, upgrading the
// connection with STARTTLS when the server offers it.
type SMTPMailer struct {
	addr     string // host:port
	host     string
	implicit bool // smtps: TLS from the first byte
	auth     smtp.Auth
	from     string
	// tls configures the TLS connection (tests trust their own
	// certificate); nil verifies against the system's roots.
	tls *tls.Config
}

// NewSMTPMailer parses smtp://user:pass@host:port (or smtps:// for TLS
// from the start; port 587 and 465 by default) and the sender address.
func NewSMTPMailer(rawURL, from string) (*SMTPMailer, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" {
		return nil, errors.New("want smtp://user:password@host:port, or smtps:// for TLS from the start")
	}
	if a, err := mail.ParseAddress(from); err != nil || a.Address == "" {
		return nil, fmt.Errorf("sender %q: want an email address", from)
	}
	m := &SMTPMailer{host: u.Hostname(), implicit: u.Scheme == "smtps", from: from}
	port := u.Port()
	if port == "" {
		port = map[bool]string{false: "587", true: "465"}[m.implicit]
	}
	m.addr = net.JoinHostPort(m.host, port)
	if u.User != nil {
		pw, _ := u.User.Password()
		m.auth = smtp.PlainAuth("", u.User.Username(), pw, m.host)
	}
	return m, nil
}

// WithTLSConfig returns the mailer with its TLS configuration replaced.
func (m *SMTPMailer) WithTLSConfig(c *tls.Config) *SMTPMailer {
	n := *m
	n.tls = c
	return &n
}

// tlsConfig is the configuration of the TLS connection to the server.
func (m *SMTPMailer) tlsConfig() *tls.Config {
	if m.tls != nil {
		return m.tls
	}
	return &tls.Config{ServerName: m.host, MinVersion: tls.VersionTLS12}
}

// Send delivers one plain text message, giving up when ctx ends.
func (m *SMTPMailer) Send(ctx context.Context, to, subject, body string) error {
	return m.deliver(ctx, to, subject, "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"+crlf(body))
}

// SendAlternative delivers one message with a plain text and an HTML
// version of its body (multipart/alternative, text first), giving up
// when ctx ends.
func (m *SMTPMailer) SendAlternative(ctx context.Context, to, subject, text, html string) error {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return err
	}
	boundary := "quire-" + hex.EncodeToString(b[:])
	part := func(typ, body string) string {
		return "--" + boundary + "\r\nContent-Type: " + typ + "; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" +
			crlf(body) + "\r\n"
	}
	return m.deliver(ctx, to, subject, "Content-Type: multipart/alternative; boundary=\""+boundary+"\"\r\n\r\n"+
		part("text/plain", text)+part("text/html", html)+"--"+boundary+"--\r\n")
}

// crlf ends every line of s with CRLF, as SMTP wants.
func crlf(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}

// deliver sends one message whose content headers and body are content.
func (m *SMTPMailer) deliver(ctx context.Context, to, subject, content string) error {
	if strings.ContainsAny(to, "\r\n") {
		return quire.Invalid("email", "must be an email address")
	}
	d := net.Dialer{Timeout: 30 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", m.addr)
	if err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	} else {
		_ = conn.SetDeadline(time.Now().Add(time.Minute))
	}
	if m.implicit {
		conn = tls.Client(conn, m.tlsConfig())
	}
	c, err := smtp.NewClient(conn, m.host)
	if err != nil {
		conn.Close()
		return fmt.Errorf("smtp: %w", err)
	}
	defer c.Close()
	if ok, _ := c.Extension("STARTTLS"); ok && !m.implicit {
		if err := c.StartTLS(m.tlsConfig()); err != nil {
			return fmt.Errorf("smtp: starttls: %w", err)
		}
	}
	if m.auth != nil {
		if err := c.Auth(m.auth); err != nil {
			return fmt.Errorf("smtp: auth: %w", err)
		}
	}
	sender, _ := mail.ParseAddress(m.from)
	if err := c.Mail(sender.Address); err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	if err := c.Rcpt(to); err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	msg := "From: " + m.from + "\r\nTo: " + to + "\r\nSubject: " + mime.QEncoding.Encode("utf-8", subject) +
		"\r\nDate: " + time.Now().UTC().Format(time.RFC1123Z) +
		"\r\nMIME-Version: 1.0\r\n" + content
	if _, err := w.Write([]byte(msg)); err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	return c.Quit()
}
