package service

import (
	"net/mail"
	"strings"
	"unicode/utf8"

	"quire/internal/quire"
)

// checkTitle checks a free-text title's trimmed length in characters.
func checkTitle(field, v string, min, max int) error {
	n := utf8.RuneCountInString(strings.TrimSpace(v))
	if n < min {
		if min == 1 {
			return quire.Invalid(field, "must not be empty")
		}
		return quire.Invalid(field, "must be at least %d characters", min)
	}
	if n > max {
		return quire.Invalid(field, "must be at most %d characters", max)
	}
	return nil
}

// validEmail reports whether s is a bare email address.
func validEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && strings.Contains(s, "@")
}
