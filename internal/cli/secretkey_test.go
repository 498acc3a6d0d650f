package cli

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"testing"
)

func TestReadSecretKey(t *testing.T) {
	key := bytes.Repeat([]byte{0xab}, 32)
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for name, path := range map[string]string{
		"raw":    write("raw", key),
		"base64": write("b64", []byte(base64.StdEncoding.EncodeToString(key)+"\n")),
		"url":    write("url", []byte(base64.RawURLEncoding.EncodeToString(key))),
	} {
		got, err := readSecretKey(path)
		if err != nil || !bytes.Equal(got, key) {
			t.Errorf("%s: %x, %v", name, got, err)
		}
	}
	if k, err := readSecretKey(""); k != nil || err != nil {
		t.Errorf("no file: %x, %v", k, err)
	}
	for name, path := range map[string]string{
		"short":   write("short", []byte("abc")),
		"missing": filepath.Join(dir, "nope"),
	} {
		if _, err := readSecretKey(path); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
