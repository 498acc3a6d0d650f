package cli

import (
	"errors"
	"fmt"

	"quire/internal/service"
)

// mailer returns the mailer of --smtp-url and --smtp-from, nil when no
// SMTP server is configured.
func (c Config) mailer() (service.Mailer, error) {
	if c.SMTPURL == "" {
		if c.SMTPFrom != "" {
			return nil, errors.New("--smtp-from needs --smtp-url")
		}
		return nil, nil
	}
	if c.SMTPFrom == "" {
		return nil, errors.New("--smtp-url needs --smtp-from, the sender address")
	}
	m, err := service.NewSMTPMailer(c.SMTPURL, c.SMTPFrom)
	if err != nil {
		// The URL may hold a password: it is not repeated.
		return nil, fmt.Errorf("--smtp-url: %w", err)
	}
	return m, nil
}
