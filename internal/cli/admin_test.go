package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"quire/internal/store"
)

// decode parses one JSON object printed by a command.
func decode(t *testing.T, out string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("output is not JSON: %q", out)
	}
	return m
}

// wantKeys checks that m has exactly keys, each a non-empty value.
func wantKeys(t *testing.T, m map[string]any, keys ...string) {
	t.Helper()
	if len(m) != len(keys) {
		t.Errorf("got %v, want keys %v", m, keys)
	}
	for _, k := range keys {
		if v, ok := m[k].(string); !ok || v == "" {
			t.Errorf("%s = %v in %v", k, m[k], m)
		}
	}
}

func TestMigrate(t *testing.T) {
	getenv := env(map[string]string{"QUIRE_DATA": t.TempDir()})
	code, out, stderr := runCmd(t, getenv, "migrate")
	if code != 0 {
		t.Fatalf("migrate: %d %s", code, stderr)
	}
	var v struct{ From, To *int64 }
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.From == nil || v.To == nil {
		t.Fatalf("migrate printed %q", out)
	}
	if *v.From != 0 || *v.To <= 0 {
		t.Errorf("first migrate went from %d to %d", *v.From, *v.To)
	}
	first := *v.To

	code, out, _ = runCmd(t, getenv, "migrate")
	if code != 0 {
		t.Fatal(code)
	}
	if strings.TrimSpace(out) != `{"from":`+itoa64(first)+`,"to":`+itoa64(first)+`}` {
		t.Errorf("second migrate printed %s", out)
	}
}

func itoa64(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestAdminCommands(t *testing.T) {
	dir := t.TempDir()
	getenv := env(nil)

	code, out, stderr := runCmd(t, getenv, "admin", "bootstrap", "--data", dir,
		"--org-title", "Acme", "--email", "owner@example.com", "--name", "Owner")
	if code != 0 {
		t.Fatalf("admin bootstrap: %d %s", code, stderr)
	}
	boot := decode(t, out)
	wantKeys(t, boot, "organization", "user", "token")

	code, out, stderr = runCmd(t, getenv, "admin", "user", "create", "--data", dir,
		"--email", "ed@example.com", "--name", "Ed", "--org", boot["organization"].(string), "--role", "edit")
	if code != 0 {
		t.Fatalf("admin user create: %d %s", code, stderr)
	}
	wantKeys(t, decode(t, out), "user", "token")

	code, out, stderr = runCmd(t, getenv, "admin", "user", "create", "--data", dir,
		"--email", "loner@example.com", "--name", "Loner")
	if code != 0 {
		t.Fatalf("admin user create without org: %d %s", code, stderr)
	}
	wantKeys(t, decode(t, out), "user", "token")

	code, out, stderr = runCmd(t, getenv, "admin", "token", "create", "--data", dir, "--email", "ed@example.com", "--name", "deploy")
	if code != 0 {
		t.Fatalf("admin token create: %d %s", code, stderr)
	}
	wantKeys(t, decode(t, out), "token")

	// The server started later sees a used database and serves the tokens.
	s := startServe(t, getenv, "--addr", "127.0.0.1:0", "--data", dir)
	if lines := tokenLines(s.stderr.String()); len(lines) != 0 {
		t.Errorf("serve bootstrapped after admin bootstrap:\n%s", s.stderr)
	}
	if code, body := s.get(t, "/v1/user", boot["token"].(string)); code != 200 || !strings.Contains(body, "owner@example.com") {
		t.Errorf("/v1/user = %d %s", code, body)
	}
}

func TestAdminErrors(t *testing.T) {
	dir := t.TempDir()
	getenv := env(map[string]string{"QUIRE_DATA": dir})
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"admin"}, 2, "quire: admin: no command given"},
		{[]string{"admin", "frobnicate"}, 2, `quire: admin: unknown command "frobnicate"`},
		{[]string{"admin", "user", "create", "--name", "X"}, 2, "quire: --email is required"},
		{[]string{"admin", "user", "create", "--email", "x@y.z", "--name", "X", "--role", "edit"}, 2, "quire: --role needs --org"},
		{[]string{"admin", "token", "create", "--email", "nobody@example.com"}, 1, "quire: "},
		{[]string{"admin", "user", "create", "--email", "not-an-email", "--name", "X"}, 1, "quire: email"},
		{[]string{"admin", "user", "create", "--email", "a@b.c", "--name", "X", "--org", "o", "--role", "boss"}, 2, "quire: --role"},
		{[]string{"admin", "user", "create", "--email", "a@b.c", "--name", "X", "--org", "nope", "--role", "read"}, 1, "quire: "},
	} {
		code, _, stderr := runCmd(t, getenv, tc.args...)
		if code != tc.code || !strings.HasPrefix(stderr, tc.want) {
			t.Errorf("%v: code %d, stderr %q; want %d, %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
}

func TestAdminRotateDownloadKey(t *testing.T) {
	dir := t.TempDir()
	getenv := env(map[string]string{"QUIRE_DATA": dir})
	// storedKey reads the key as a server would, offering one that a
	// database without a key would take.
	storedKey := func() []byte {
		t.Helper()
		st, err := store.Open(t.Context(), store.Config{DataDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		key, err := st.DownloadKey(t.Context(), []byte("offered"))
		if err != nil {
			t.Fatal(err)
		}
		return key
	}
	first := storedKey()
	var keys [][]byte
	for range 2 {
		code, out, stderr := runCmd(t, getenv, "admin", "rotate-download-key")
		if code != 0 || strings.TrimSpace(out) != `{"rotated":true}` {
			t.Fatalf("rotate-download-key: %d %q %s", code, out, stderr)
		}
		keys = append(keys, storedKey())
	}
	if bytes.Equal(keys[0], first) || bytes.Equal(keys[1], keys[0]) {
		t.Errorf("the key did not change: %x, then %x, then %x", first, keys[0], keys[1])
	}
	if len(keys[0]) != 32 || len(keys[1]) != 32 {
		t.Errorf("rotated keys of %d and %d bytes, want 32", len(keys[0]), len(keys[1]))
	}
	if code, _, stderr := runCmd(t, getenv, "admin", "rotate-download-key", "extra"); code != 2 {
		t.Errorf("extra argument: %d %s", code, stderr)
	}
}
