package cli

import (
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	code, out, _ := runCmd(t, env(nil), "version")
	if code != 0 || !strings.HasPrefix(out, "quire ") || !strings.Contains(out, "build ") {
		t.Errorf("version: %d %q", code, out)
	}
}

func TestHelp(t *testing.T) {
	code, out, _ := runCmd(t, env(nil), "help")
	if code != 0 || !strings.Contains(out, "Usage: quire <command>") || !strings.Contains(out, "admin user create") {
		t.Errorf("help: %d %q", code, out)
	}
	code, out, _ = runCmd(t, env(nil), "help", "serve")
	if code != 0 || !strings.Contains(out, "Usage: quire serve") || !strings.Contains(out, "QUIRE_ADDR") {
		t.Errorf("help serve: %d %q", code, out)
	}
	code, out, _ = runCmd(t, env(nil), "admin", "user", "create", "-h")
	if code != 0 || !strings.Contains(out, "-email") {
		t.Errorf("admin user create -h: %d %q", code, out)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "quire: no command given"},
		{[]string{"frobnicate"}, `quire: unknown command "frobnicate"`},
		{[]string{"serve", "--bogus"}, "quire: flag provided but not defined: -bogus"},
		{[]string{"version", "extra"}, `quire: unexpected argument "extra"`},
		{[]string{"migrate", "--database", "mysql://x"}, "quire: --database"},
	} {
		code, _, stderr := runCmd(t, env(nil), tc.args...)
		if code != 2 || !strings.HasPrefix(stderr, tc.want) {
			t.Errorf("%v: code %d, stderr %q", tc.args, code, stderr)
		}
	}
}
