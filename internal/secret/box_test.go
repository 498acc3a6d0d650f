package secret

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestSealOpens(t *testing.T) {
	b, err := New(NewKey())
	if err != nil {
		t.Fatal(err)
	}
	plain := []byte("https://user:token@example.com/o/r.git")
	s1, s2 := b.Seal(plain, []byte("space-1")), b.Seal(plain, []byte("space-1"))
	if s1 == s2 {
		t.Fatal("two seals of the same text are equal: the nonce is not fresh")
	}
	if strings.Contains(s1, "token") {
		t.Fatalf("sealed text shows the secret: %s", s1)
	}
	got, err := b.Open(s1, []byte("space-1"))
	if err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("Open = %q, %v", got, err)
	}
}

func TestOpenRefuses(t *testing.T) {
	b, _ := New(NewKey())
	other, _ := New(NewKey())
	s := b.Seal([]byte("secret"), []byte("a"))
	cases := map[string]func() ([]byte, error){
		"other context": func() ([]byte, error) { return b.Open(s, []byte("b")) },
		"other key":     func() ([]byte, error) { return other.Open(s, []byte("a")) },
		"tampered":      func() ([]byte, error) { return b.Open(s[:len(s)-2]+"AA", []byte("a")) },
		"truncated":     func() ([]byte, error) { return b.Open(s[:6], []byte("a")) },
		"no prefix":     func() ([]byte, error) { return b.Open(s[3:], []byte("a")) },
		"not base64":    func() ([]byte, error) { return b.Open("v1.!!!", []byte("a")) },
	}
	for name, open := range cases {
		if _, err := open(); !errors.Is(err, ErrOpen) {
			t.Errorf("%s: err = %v, want ErrOpen", name, err)
		}
	}
}

func TestNewRefusesShortKey(t *testing.T) {
	if _, err := New(make([]byte, 16)); err == nil {
		t.Fatal("a 16-byte key was accepted")
	}
}
