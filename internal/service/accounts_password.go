package service

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"

	"quire/internal/quire"
)

// PasswordParams are the argon2id parameters passwords are hashed with.
type PasswordParams struct {
	// Memory is in KiB.
	Memory  uint32
	Time    uint32
	Threads uint8
}

// DefaultPasswordParams returns the parameters of the OWASP
// recommendation for argon2id: 19 MiB, two passes, one lane (see
// docs/decisions.md).
func DefaultPasswordParams() PasswordParams {
	return PasswordParams{Memory: 19 * 1024, Time: 2, Threads: 1}
}

// Lengths of a password hash's salt and key, in bytes.
const (
	passwordSaltLen = 16
	passwordKeyLen  = 32
)

// MinPasswordLength is the fewest characters a password may have.
const MinPasswordLength = 10

// maxPasswordLength bounds what is hashed, so that no one makes the
// server hash megabytes.
const maxPasswordLength = 256

// hashPassword returns the PHC-style encoding of an argon2id hash of pw
// with a fresh salt:
// $argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>, base64 without padding.
func hashPassword(pw string, p PasswordParams) string {
	salt := make([]byte, passwordSaltLen)
	_, _ = rand.Read(salt)
	key := argon2.IDKey([]byte(pw), salt, p.Time, p.Memory, p.Threads, passwordKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.Memory, p.Time, p.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

// decodePasswordHash parses an encoding made by hashPassword.
func decodePasswordHash(encoded string) (p PasswordParams, salt, key []byte, err error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return p, nil, nil, fmt.Errorf("not an argon2id hash")
	}
	var v int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &v); err != nil || v != argon2.Version {
		return p, nil, nil, fmt.Errorf("unsupported argon2 version %q", parts[2])
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil {
		return p, nil, nil, fmt.Errorf("bad argon2 parameters %q", parts[3])
	}
	if p.Memory == 0 || p.Time == 0 || p.Threads == 0 || p.Memory > 1<<22 || p.Time > 64 {
		return p, nil, nil, fmt.Errorf("argon2 parameters out of range %q", parts[3])
	}
	b64 := base64.RawStdEncoding
	if salt, err = b64.DecodeString(parts[4]); err != nil {
		return p, nil, nil, fmt.Errorf("bad salt: %w", err)
	}
	if key, err = b64.DecodeString(parts[5]); err != nil || len(key) == 0 {
		return p, nil, nil, fmt.Errorf("bad key")
	}
	return p, salt, key, nil
}

// checkPassword reports whether pw matches the encoded hash, comparing
// the keys in constant time, and whether the hash was made with other
// parameters than want (it should be made again).
func checkPassword(encoded, pw string, want PasswordParams) (ok, stale bool) {
	p, salt, key, err := decodePasswordHash(encoded)
	if err != nil {
		return false, false
	}
	got := argon2.IDKey([]byte(pw), salt, p.Time, p.Memory, p.Threads, uint32(len(key)))
	return subtle.ConstantTimeCompare(got, key) == 1, p != want
}

// isCommonPassword reports whether a lower-cased password is one of those
// of at least MinPasswordLength characters found at the top of every
// leaked password list.
func isCommonPassword(lower string) bool {
	switch lower {
	case "1234567890", "12345678910", "0123456789", "1234567891", "123456789a", "1q2w3e4r5t",
		"qwertyuiop", "1qaz2wsx3edc", "0987654321", "1111111111", "0000000000", "password12",
		"password123", "password1234", "passw0rd12", "iloveyou12", "qwerty1234", "qwerty12345",
		"qwerty123456", "abcdefghij", "abc1234567", "letmein123", "welcome123", "welcome1234",
		"administrator", "admin12345", "admin123456", "changeme123", "football123", "baseball123",
		"sunshine123", "princess123", "dragon1234", "monkey1234", "superman123", "trustno1234",
		"aaaaaaaaaa", "asdfghjkl1", "asdfghjkl;", "zxcvbnm123", "q1w2e3r4t5", "1q2w3e4r5t6y",
		"p@ssw0rd12", "p@ssword123", "password!1", "passwordpassword", "myspace123",
		"computer123", "internet123", "michael123", "jennifer123", "starwars123", "whatever123",
		"correcthorsebatterystaple":
		return true
	}
	return false
}

// checkPasswordStrength applies the floor every password must clear: long
// enough, not one of the most common passwords, not the email address or
// its local part. The error names the field.
func checkPasswordStrength(field, pw, email string) error {
	n := utf8.RuneCountInString(pw)
	if n < MinPasswordLength {
		return quire.Invalid(field, "must be at least %d characters long", MinPasswordLength)
	}
	if len(pw) > maxPasswordLength {
		return quire.Invalid(field, "must be at most %d bytes long", maxPasswordLength)
	}
	lower := strings.ToLower(pw)
	if isCommonPassword(lower) {
		return quire.Invalid(field, "is one of the most common passwords: choose another")
	}
	email = strings.ToLower(strings.TrimSpace(email))
	local, _, _ := strings.Cut(email, "@")
	if email != "" && (lower == email || lower == local || strings.Contains(lower, local) && len(local) >= n-2) {
		return quire.Invalid(field, "must not be your email address or its name part")
	}
	return nil
}
