package main

import (
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"go.yaml.in/yaml/v3"
)

// composeFile is the part of deploy/compose.yaml the checks read.
type composeFile struct {
	Services map[string]struct {
		Image       string            `yaml:"image"`
		Environment map[string]string `yaml:"environment"`
		Secrets     []string          `yaml:"secrets"`
		Entrypoint  []string          `yaml:"entrypoint"`
	} `yaml:"services"`
	Secrets map[string]struct {
		File string `yaml:"file"`
	} `yaml:"secrets"`
}

// testCompose checks deploy/compose.yaml and deploy/Caddyfile against the
// server and the image: the replicas get one configuration, every QUIRE_
// variable is one quire serve reads, the secret key file is a secret they
// mount, the database and bucket are the ones the file starts, and Caddy
// sends requests to every replica at the port the image listens on.
func testCompose(t *testing.T, bin string, c v1.Config) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "deploy", "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var f composeFile
	if err := yaml.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	var replicas []string
	for name, s := range f.Services {
		if strings.HasPrefix(s.Image, "${QUIRE_IMAGE") {
			replicas = append(replicas, name)
		}
	}
	slices.Sort(replicas)
	if len(replicas) != 2 {
		t.Fatalf("want two Quire replicas in compose.yaml, got %v", replicas)
	}
	first := f.Services[replicas[0]]
	for _, name := range replicas[1:] {
		s := f.Services[name]
		if !reflect.DeepEqual(s.Environment, first.Environment) || !slices.Equal(s.Secrets, first.Secrets) {
			t.Errorf("%s and %s differ in environment or secrets:\n%v %v\n%v %v", replicas[0], name,
				first.Environment, first.Secrets, s.Environment, s.Secrets)
		}
	}

	help, err := exec.Command(bin, "serve", "-h").CombinedOutput()
	if err != nil {
		t.Fatalf("quire serve -h: %v\n%s", err, help)
	}
	env := map[string]string{}
	for k, v := range first.Environment {
		env[k] = interpolate(v)
	}
	for k := range env {
		if strings.HasPrefix(k, "QUIRE_") && !strings.Contains(string(help), "(env "+k+")") {
			t.Errorf("compose.yaml sets %s, which quire serve does not read", k)
		}
	}
	for _, k := range []string{"QUIRE_DATABASE_URL", "QUIRE_BLOB_URL", "QUIRE_BASE_URL", "QUIRE_SECRET_KEY_FILE"} {
		if env[k] == "" {
			t.Errorf("the replicas do not get %s, which they must share", k)
		}
	}
	secret, ok := strings.CutPrefix(env["QUIRE_SECRET_KEY_FILE"], "/run/secrets/")
	if _, declared := f.Secrets[secret]; !ok || !declared || !slices.Contains(first.Secrets, secret) {
		t.Errorf("QUIRE_SECRET_KEY_FILE %q is not a secret the replicas mount (%v)", env["QUIRE_SECRET_KEY_FILE"], first.Secrets)
	}
	db, err := url.Parse(env["QUIRE_DATABASE_URL"])
	pg := map[string]string{}
	for k, v := range f.Services[hostOf(db)].Environment {
		pg[k] = interpolate(v)
	}
	if err != nil || db.User.Username() != pg["POSTGRES_USER"] || strings.TrimPrefix(db.Path, "/") != pg["POSTGRES_DB"] {
		t.Errorf("QUIRE_DATABASE_URL %q is not the database of a service of compose.yaml", env["QUIRE_DATABASE_URL"])
	}
	blobs, err := url.Parse(env["QUIRE_BLOB_URL"])
	if err != nil || blobs.Scheme != "s3" {
		t.Fatalf("QUIRE_BLOB_URL %q: want an s3:// URL", env["QUIRE_BLOB_URL"])
	}
	endpoint, err := url.Parse(blobs.Query().Get("endpoint"))
	if err != nil || f.Services[hostOf(endpoint)].Image == "" {
		t.Errorf("the bucket's endpoint %q is not a service of compose.yaml", blobs.Query().Get("endpoint"))
	}
	if !strings.Contains(strings.Join(f.Services["bucket"].Entrypoint, " "), "mc mb --ignore-existing local/"+blobs.Host) {
		t.Errorf("compose.yaml does not create the bucket %q", blobs.Host)
	}

	caddy, err := os.ReadFile(filepath.Join(repoRoot, "deploy", "Caddyfile"))
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := strings.Cut(envValue(c.Env, "QUIRE_ADDR"), ":")
	m := regexp.MustCompile(`(?m)^\s*reverse_proxy ([^{\n]+)`).FindSubmatch(caddy)
	if m == nil {
		t.Fatal("the Caddyfile has no reverse_proxy")
	}
	var want []string
	for _, r := range replicas {
		want = append(want, r+":"+port)
	}
	if got := strings.Fields(string(m[1])); !slices.Equal(got, want) {
		t.Errorf("Caddy proxies to %v, want every replica at the image's port: %v", got, want)
	}
}

// hostOf is the host name of u, without its port; "" for a nil URL.
func hostOf(u *url.URL) string {
	if u == nil {
		return ""
	}
	return u.Hostname()
}

// interpolate replaces the ${NAME}, ${NAME:-default} and ${NAME:?message}
// of a compose value as compose does, with the default where there is
// one and a stand-in for a value from .env elsewhere.
func interpolate(v string) string {
	re := regexp.MustCompile(`\$\{([A-Z0-9_]+)(:-([^}]*)|:\?[^}]*)?\}`)
	return re.ReplaceAllStringFunc(v, func(m string) string {
		sub := re.FindStringSubmatch(m)
		if strings.HasPrefix(sub[2], ":-") {
			return sub[3]
		}
		return "value-of-" + strings.ToLower(sub[1])
	})
}
