package service

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"quire/internal/quire"
)

// Mailer sends plain text email.
type Mailer interface {
	// Send sends one message to one address.
	Send(ctx context.Context, to, subject, body string) error
}

// SMTPMailer sends email through an SMTP server with go-mail, upgrading
// the connection with STARTTLS when the server offers it.
type SMTPMailer struct {
	host     string
	port     int
	implicit bool // smtps: TLS from the first byte
	user     string
	password string
	auth     bool
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
	m := &SMTPMailer{host: u.Hostname(), implicit: u.Scheme == "smtps", from: from, port: 587}
	if m.implicit {
		m.port = 465
	}
	if p := u.Port(); p != "" {
		if m.port, err = strconv.Atoi(p); err != nil || m.port < 1 || m.port > 65535 {
			return nil, fmt.Errorf("port %q: want a number from 1 to 65535", p)
		}
	}
	if u.User != nil {
		m.user = u.User.Username()
		m.password, _ = u.User.Password()
		m.auth = true
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
	return m.deliver(ctx, to, subject, func(msg *gomail.Msg) {
		msg.SetBodyString(gomail.TypeTextPlain, body)
	})
}

// SendAlternative delivers one message with a plain text and an HTML
// version of its body (multipart/alternative, text first), giving up
// when ctx ends.
func (m *SMTPMailer) SendAlternative(ctx context.Context, to, subject, text, html string) error {
	return m.deliver(ctx, to, subject, func(msg *gomail.Msg) {
		msg.SetBodyString(gomail.TypeTextPlain, text)
		msg.AddAlternativeString(gomail.TypeTextHTML, html)
	})
}

// deliver sends one message to one address, body setting its parts.
func (m *SMTPMailer) deliver(ctx context.Context, to, subject string, body func(*gomail.Msg)) error {
	if strings.ContainsAny(to, "\r\n") {
		return quire.Invalid("email", "must be an email address")
	}
	msg := gomail.NewMsg(gomail.WithEncoding(gomail.EncodingQP), gomail.WithCharset(gomail.CharsetUTF8), gomail.WithNoDefaultUserAgent())
	if err := msg.From(m.from); err != nil {
		return fmt.Errorf("smtp: sender: %w", err)
	}
	if err := msg.To(to); err != nil {
		return quire.Invalid("email", "must be an email address")
	}
	msg.Subject(subject)
	msg.SetDate()
	body(msg)
	opts := []gomail.Option{gomail.WithPort(m.port), gomail.WithTimeout(30 * time.Second), gomail.WithTLSConfig(m.tlsConfig())}
	if m.implicit {
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if m.auth {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthPlain), gomail.WithUsername(m.user), gomail.WithPassword(m.password))
	}
	c, err := gomail.NewClient(m.host, opts...)
	if err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Minute)
		defer cancel()
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	return nil
}
